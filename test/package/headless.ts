/**
 * Pages as a browser shows them: the npm Chromium (./chromium.ts) driven over the DevTools
 * protocol with Node's built-in WebSocket. The headless shell does not finish `--dump-dom` runs,
 * so pages are opened, awaited and read through the protocol instead.
 *
 * @module
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { installChromium } from "./chromium.js";

interface Reply {
  id?: number;
  method?: string;
  sessionId?: string;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/** A running headless Chromium. */
export interface Headless {
  /** The DOM of a local file after its scripts ran, once the `until` expression holds in the page. */
  renderedDom(file: string, until?: string): Promise<string>;
  close(): void;
}

/** Reads the DevTools URL that Chromium prints on stderr when it listens. */
function devtoolsUrl(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let log = "";
    const timer = setTimeout(() => {
      reject(new Error(`headless Chromium printed no DevTools URL within ${timeoutMs} ms:\n${log.slice(-2000)}`));
    }, timeoutMs);
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      log += chunk;
      const url = /DevTools listening on (ws:\/\/\S+)/.exec(log)?.[1];
      if (url !== undefined) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`headless Chromium exited with ${code}:\n${log.slice(-2000)}`));
    });
  });
}

/** Starts the npm Chromium (unpacking it on first use) and connects to it. */
export async function launchHeadless(): Promise<Headless> {
  const { binary, env } = await installChromium();
  const profile = mkdtempSync(join(tmpdir(), "cocoon-chromium-"));
  const args = [
    "--headless=shell",
    "--no-sandbox",
    "--no-zygote",
    "--disable-gpu",
    "--remote-debugging-port=0",
    `--user-data-dir=${profile}`,
  ];
  const child = spawn(binary, [...args, "about:blank"], { env, stdio: ["ignore", "ignore", "pipe"] });
  const close = () => {
    child.kill("SIGKILL");
    rmSync(profile, { recursive: true, force: true });
  };
  let socket: WebSocket;
  try {
    socket = new WebSocket(await devtoolsUrl(child, 60_000));
    await new Promise((resolve, reject) => {
      socket.addEventListener("open", resolve, { once: true });
      socket.addEventListener("error", () => reject(new Error("cannot connect to headless Chromium's DevTools")), { once: true });
    });
  } catch (err) {
    close();
    throw err;
  }

  let next = 0;
  const pending = new Map<number, (reply: Reply) => void>();
  const listeners = new Set<(reply: Reply) => void>();
  socket.addEventListener("message", (event) => {
    const reply = JSON.parse(String(event.data)) as Reply;
    if (reply.id === undefined) listeners.forEach((listen) => listen(reply));
    else pending.get(reply.id)?.(reply);
  });
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = ++next;
      pending.set(id, (reply) => {
        pending.delete(id);
        if (reply.error === undefined) resolve(reply.result ?? {});
        else reject(new Error(`${method}: ${reply.error.message}`));
      });
      socket.send(JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) }));
    });
  const evaluate = async (expression: string, sessionId: string) =>
    ((await send("Runtime.evaluate", { expression, returnByValue: true }, sessionId)).result as { value?: unknown }).value;

  return {
    async renderedDom(file, until = "true") {
      const { targetId } = (await send("Target.createTarget", { url: "about:blank" })) as { targetId: string };
      try {
        const { sessionId } = (await send("Target.attachToTarget", { targetId, flatten: true })) as { sessionId: string };
        await send("Page.enable", {}, sessionId);
        const loaded = new Promise<void>((resolve) => {
          const listen = (reply: Reply) => {
            if (reply.sessionId !== sessionId || reply.method !== "Page.loadEventFired") return;
            listeners.delete(listen);
            resolve();
          };
          listeners.add(listen);
        });
        await send("Page.navigate", { url: pathToFileURL(file).href }, sessionId);
        await loaded;
        const deadline = Date.now() + 60_000;
        while ((await evaluate(`Boolean(${until})`, sessionId)) !== true) {
          if (Date.now() > deadline) throw new Error(`${file}: \`${until}\` did not hold within 60 s`);
          await sleep(100);
        }
        return String(await evaluate("document.documentElement.outerHTML", sessionId));
      } finally {
        await send("Target.closeTarget", { targetId });
      }
    },
    close() {
      socket.close();
      close();
    },
  };
}
