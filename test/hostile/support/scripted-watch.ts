import type { ServerResponse } from "node:http";
import { API_VERSION } from "../../../src/apis/v1/index.js";
import type { WatchEvent } from "../../../src/k8s/index.js";
import { json, type PeerHandler, type SeenRequest } from "./peer.js";

/** Whether a request the API server saw is a watch (else a list). */
export const isWatch = (req: SeenRequest): boolean => new URL(`https://x${req.path}`).searchParams.get("watch") === "true";

/** A query parameter of a request the API server saw. */
export const queryOf = (req: SeenRequest, name: string): string | null => new URL(`https://x${req.path}`).searchParams.get(name);

/** `GET list` or `GET watch@<resourceVersion>`, for exact request logs. */
export const requestLine = (req: SeenRequest): string => (isWatch(req) ? `watch@${queryOf(req, "resourceVersion") ?? ""}` : "list");

/** A CocoonHibernation as the API server stores it; `desire: "Bogus"` makes one that does not parse. */
export function hibernation(name: string, resourceVersion: string, desire = "Hibernate"): Record<string, unknown> {
  return {
    apiVersion: API_VERSION,
    kind: "CocoonHibernation",
    metadata: { name, namespace: "ns", resourceVersion, uid: `uid-${name}` },
    spec: { podRef: { name: `${name}-pod` }, desire },
  };
}

/** Answers a list: `items` at `resourceVersion`, with a `continue` token when given. */
export function sendList(res: ServerResponse, items: readonly unknown[], resourceVersion: string, continueToken?: string): void {
  const metadata = { resourceVersion, ...(continueToken === undefined ? {} : { continue: continueToken }) };
  json(res, 200, { kind: "CocoonHibernationList", apiVersion: API_VERSION, metadata, items });
}

/** A watch answer being written: 200, chunked, one line per `write`. */
export interface WatchAnswer {
  /** Writes one event line. */
  event(type: string, object: unknown): Promise<void>;
  /** Writes raw bytes (no newline added); resolves once the client took them or left. */
  raw(bytes: string | Buffer): Promise<void>;
  /** Ends the response (the server closes the watch). */
  end(): void;
  /** Whether the client has gone (the connection closed). */
  readonly closed: boolean;
}

/** Starts a watch answer on `res`. */
export function answerWatch(res: ServerResponse): WatchAnswer {
  res.writeHead(200, { "content-type": "application/json", "transfer-encoding": "chunked" });
  res.flushHeaders();
  let closed = false;
  res.on("close", () => (closed = true));
  const raw = async (bytes: string | Buffer): Promise<void> => {
    if (closed) return;
    if (res.write(bytes)) return;
    await new Promise<void>((resolve) => {
      const go = (): void => {
        res.off("drain", go);
        res.off("close", go);
        resolve();
      };
      res.on("drain", go);
      res.on("close", go);
    });
  };
  return {
    event: (type, object) => raw(`${JSON.stringify({ type, object })}\n`),
    raw,
    end: () => {
      if (!closed) res.end();
    },
    get closed() {
      return closed;
    },
  };
}

/** An API server that answers lists with `list` and watches with `watch`, each given its own count (0-based). */
export function listAndWatch(
  list: (res: ServerResponse, n: number, req: SeenRequest) => void,
  watch: (res: ServerResponse, n: number, req: SeenRequest) => void | Promise<void>,
): PeerHandler {
  let lists = 0;
  let watches = 0;
  return (req, res) => (isWatch(req) ? watch(res, watches++, req) : list(res, lists++, req));
}

/** Events of a watch as short lines: `added ns/a@6`, `invalid(added) ns/b`, `synced 10`, `retrying ERR_WATCH_STREAM`. */
export function eventLine(event: WatchEvent<unknown>): string {
  switch (event.type) {
    case "synced":
    case "relisted":
      return `${event.type} ${event.resourceVersion}`;
    case "retrying":
      return `retrying ${errorCode(event.error)}`;
    case "invalid":
      return `invalid(${event.change}) ${event.error.namespace}/${event.error.objectName}`;
    default: {
      const metadata = (event.object as { metadata: { namespace: string; name: string; resourceVersion: string } }).metadata;
      return `${event.type} ${metadata.namespace}/${metadata.name}@${metadata.resourceVersion}`;
    }
  }
}

/** A watch being read: its events as they come, with the time each came. */
export interface Recording {
  readonly events: WatchEvent<unknown>[];
  readonly at: number[];
  /** Resolves once `count` events match, or rejects after `timeoutMs`. */
  until(match: (event: WatchEvent<unknown>) => boolean, options?: { count?: number; timeoutMs?: number }): Promise<void>;
  /** Resolves when the iteration has ended. */
  readonly done: Promise<void>;
  lines(): string[];
}

/** Reads `watch` in the background into a {@link Recording}. */
export function record(watch: AsyncIterable<WatchEvent<unknown>>): Recording {
  const events: WatchEvent<unknown>[] = [];
  const at: number[] = [];
  let wake = (): void => undefined;
  const done = (async () => {
    for await (const event of watch) {
      events.push(event);
      at.push(Date.now());
      wake();
    }
  })();
  return {
    events,
    at,
    done,
    lines: () => events.map(eventLine),
    async until(match, { count = 1, timeoutMs = 10_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      while (events.filter(match).length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms; events so far: ${events.map(eventLine).join(", ")}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    },
  };
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : error instanceof Error ? error.message : "?";
}
