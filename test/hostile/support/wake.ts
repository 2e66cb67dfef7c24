// The parts of a wake's hostile tests: Go's anchor artifacts in an in-process registry (the one the
// snapshot unit tests use), a registry that holds a blob back until told, and real consumers.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createServer, type Socket } from "node:net";
import { Readable } from "node:stream";
import { MemoryRegistry } from "../../../src/snapshot/fakes.test-util.js";
import { readRegistryVector } from "../../../src/internal/go-vectors.test-util.js";
import type { FetchedManifest, RegistryCallOptions } from "../../../src/oci/registry.js";

/** `sha256:<hex>` of `data`. */
export const sha256 = (data: Uint8Array): string => `sha256:${createHash("sha256").update(data).digest("hex")}`;

/** A registry whose blob `digest` stops at byte `at` until `gate` resolves, then sends the rest. */
export class GatedRegistry extends MemoryRegistry {
  readonly #holds = new Map<string, { at: number; gate: Promise<unknown> }>();
  /** Every read, in order: `manifest <ref>` and `blob <digest>`. */
  readonly reads: string[] = [];

  override async getManifest(name: string, reference: string): Promise<FetchedManifest> {
    this.reads.push(`manifest ${reference}`);
    return super.getManifest(name, reference);
  }

  hold(digest: string, at: number, gate: Promise<unknown>): void {
    this.#holds.set(digest, { at, gate });
  }

  override async getBlob(name: string, digest: string, options?: RegistryCallOptions): Promise<Readable> {
    this.reads.push(`blob ${digest}`);
    const hold = this.#holds.get(digest);
    const data = this.blobs.get(digest);
    if (hold === undefined || data === undefined) return super.getBlob(name, digest, options);
    async function* held(): AsyncGenerator<Uint8Array> {
      if (hold === undefined || data === undefined) return;
      if (hold.at > 0) yield data.subarray(0, hold.at);
      await hold.gate;
      if (hold.at < data.length) yield data.subarray(hold.at);
    }
    return Readable.from(held(), options?.signal ? { signal: options.signal } : {});
  }
}

/** Go's anchor snapshot `dir` stored under `<name>:hibernate`, and the import tar Go's pull writes of it. */
export interface Anchor {
  readonly reg: GatedRegistry;
  readonly name: string;
  readonly reference: string;
  readonly now: () => number;
  readonly tar: Buffer;
  readonly layers: readonly { digest: string; size: number }[];
}

/** Loads the anchor `dir` of test/fixtures/go/registry/snapshot. */
export async function anchor(dir: string): Promise<Anchor> {
  const reg = new GatedRegistry();
  reg.loadBlobs(`registry/snapshot/${dir}/blobs`);
  const manifest = readRegistryVector("snapshot", dir, "manifest.json");
  const options = JSON.parse(readRegistryVector("snapshot", dir, "stream-options.json").toString()) as {
    name: string;
    nowUnixMilli: number;
  };
  await reg.putManifest(options.name, "hibernate", manifest, "application/vnd.oci.image.manifest.v1+json");
  const { layers } = JSON.parse(manifest.toString()) as { layers: { digest: string; size: number }[] };
  return {
    reg,
    name: options.name,
    reference: `${options.name}:hibernate`,
    now: () => options.nowUnixMilli,
    tar: readRegistryVector("snapshot", dir, "stream.tar"),
    layers,
  };
}

/** A cloud image of one raw disk of `disk`'s bytes, as the registry stores it, and its manifest. */
export function cloudImage(reg: MemoryRegistry, disk: Buffer): Buffer {
  const config = Buffer.from("{}");
  reg.blobs.set(sha256(config), config);
  reg.blobs.set(sha256(disk), disk);
  return Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: "application/vnd.oci.image.manifest.v1+json",
      artifactType: "application/vnd.cocoonstack.os-image.v1+json",
      config: { mediaType: "application/vnd.oci.empty.v1+json", digest: sha256(config), size: config.length },
      layers: [
        {
          mediaType: "application/vnd.cocoonstack.disk.raw",
          digest: sha256(disk),
          size: disk.length,
          annotations: { "org.opencontainers.image.title": "disk.raw" },
        },
      ],
    }),
  );
}

/** A real consumer: a Node child that reads exactly `bytes` bytes of its stdin (or none, and never exits), then exits. */
export interface Consumer {
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves once the child has exited. */
  readonly exited: Promise<void>;
  /** Kills the child if it still runs. */
  kill(): void;
}

/** Starts a consumer that reads `bytes` bytes and exits, or with `undefined` never reads and never exits. */
export function consumer(bytes: number | undefined): Consumer {
  const script =
    bytes === undefined
      ? "setInterval(() => {}, 1000)"
      : `const fs = require("node:fs"); const b = Buffer.alloc(65536); let want = ${bytes};
         while (want > 0) { const n = fs.readSync(0, b, 0, Math.min(want, b.length)); if (n === 0) break; want -= n; }
         process.exit(0);`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { child, exited, kill: () => child.kill("SIGKILL") };
}

/** A consumer on the other end of a Unix socket: the pull writes into `output`, our end of it. */
export interface SocketConsumer extends Consumer {
  /** Node's own socket to the consumer (half-open: the consumer's exit does not end it). */
  readonly output: Socket;
  close(): void;
}

/**
 * Starts a Node child that connects to a Unix socket at `at`, reads `bytes` bytes from it and
 * exits, and resolves to our end of the connection. Unlike a child's stdin, Node does not destroy
 * it when the child exits: what the pull sees is only what the kernel says.
 */
export async function socketConsumer(at: string, bytes: number): Promise<SocketConsumer> {
  const server = createServer({ allowHalfOpen: true });
  await new Promise<void>((resolve) => server.listen(at, resolve));
  const accepted = new Promise<Socket>((resolve) => server.once("connection", resolve));
  const script = `const s = require("node:net").connect(${JSON.stringify(at)}); let got = 0;
    s.on("data", (d) => { got += d.length; if (got >= ${bytes}) process.exit(0); });`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const output = await accepted;
  return {
    child,
    exited,
    output,
    kill: () => child.kill("SIGKILL"),
    close: () => {
      output.destroy();
      server.close();
    },
  };
}

/** The settled outcome of `promise`: its error, or `"resolved"`. */
export async function outcome(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => "resolved",
    (err: unknown) => err,
  );
}
