import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";

/** One question for the Go oracle; see `conformance/go/main.go` for the ops. */
export interface OracleRequest {
  readonly op: string;
  readonly args: unknown;
}

interface Pending {
  line: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/** How long Go may take over one batch before the oldest unanswered request is blamed. */
const BATCH_TIMEOUT_MS = 20_000;
/** How long Go may take to exit once its input is closed. */
const EXIT_GRACE_MS = 2_000;

/**
 * A running Go oracle: requests are written as NDJSON lines and answers are matched to them by
 * id. Write a whole batch, then await it: the pipe carries everything at once.
 */
export class Oracle {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #partial = "";
  #stderr = "";
  #exited: Error | undefined;

  constructor(binary: string) {
    this.#child = spawn(binary, [], { stdio: ["pipe", "pipe", "pipe"] });
    this.#child.stdout.setEncoding("utf8").on("data", (chunk: string) => this.#receive(chunk));
    this.#child.stderr.setEncoding("utf8").on("data", (chunk: string) => (this.#stderr += chunk));
    this.#child.on("error", (error) => this.#fail(error));
    this.#child.stdin.on("error", (error) => this.#fail(error));
    this.#child.on("exit", (code, signal) => this.#fail(new Error(`the Go oracle exited (${String(code ?? signal)}): ${this.#stderr}`)));
  }

  /** Asks one question. */
  ask<T>(request: OracleRequest): Promise<T> {
    return this.batch<T>([request]).then((answers) => answers[0] as T);
  }

  /** Asks many questions with a single write; answers come back in the same order. */
  batch<T>(requests: readonly OracleRequest[]): Promise<T[]> {
    if (this.#exited) return Promise.reject(this.#exited);
    const answers: Promise<T>[] = [];
    let lines = "";
    for (const { op, args } of requests) {
      const id = this.#nextId++;
      const line = JSON.stringify({ id, op, args });
      answers.push(new Promise<T>((resolve, reject) => this.#pending.set(id, { line, resolve: resolve, reject })));
      lines += `${line}\n`;
    }
    this.#child.stdin.write(lines);
    const watchdog = setTimeout(() => this.#stalled(), BATCH_TIMEOUT_MS);
    return Promise.all(answers).finally(() => clearTimeout(watchdog));
  }

  /** Closes stdin and waits for the process to end; kills it if it is still busy after a grace period. */
  async close(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.#child.once("exit", resolve));
    this.#child.stdin.end();
    const grace = setTimeout(() => this.#child.kill(), EXIT_GRACE_MS);
    await exited;
    clearTimeout(grace);
  }

  /** Go answers in order, so the oldest unanswered request is the one it is stuck on. */
  #stalled(): void {
    const oldest = Math.min(...this.#pending.keys());
    const line = this.#pending.get(oldest)?.line;
    if (line === undefined) return;
    this.#fail(new Error(`the Go oracle has not answered in ${String(BATCH_TIMEOUT_MS / 1000)} s; it is stuck on ${line}`));
    this.#child.kill();
  }

  #receive(chunk: string): void {
    const lines = (this.#partial + chunk).split("\n");
    this.#partial = lines.pop() ?? "";
    for (const line of lines) {
      const answer = JSON.parse(line) as { id: number; result?: unknown; fault?: string };
      const pending = this.#pending.get(answer.id);
      if (pending === undefined) {
        this.#fail(new Error(`the Go oracle answered an unknown request: ${line}`));
        return;
      }
      this.#pending.delete(answer.id);
      if (answer.fault === undefined) pending.resolve(answer.result);
      else pending.reject(new Error(`the Go oracle refused request ${String(answer.id)}: ${answer.fault}`));
    }
  }

  #fail(error: Error): void {
    this.#exited ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
