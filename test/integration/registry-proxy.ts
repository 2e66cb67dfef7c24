/**
 * A recording, fault-injecting HTTP proxy in front of the real test registry: the tests count
 * requests on the wire themselves, and make a real registry answer slowly, wrongly or short.
 *
 * @module
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the proxy saw it. */
export interface SeenRequest {
  readonly method: string;
  /** Path and query. */
  readonly path: string;
  readonly status: number;
  /** Request body bytes forwarded (those of a request answered with a fault's status: 0). */
  readonly bytes: number;
}

/** What to do to one request instead of (or on top of) forwarding it. */
export type Fault =
  | { readonly kind: "status"; readonly status: number; readonly headers?: Record<string, string>; readonly body?: string }
  | { readonly kind: "delay-headers"; readonly ms: number }
  | { readonly kind: "stall-body"; readonly afterBytes: number }
  | { readonly kind: "truncate"; readonly bytes: number }
  | { readonly kind: "corrupt" };

/** Picks a fault for a request, or `undefined` to forward it untouched. */
export type FaultRule = (method: string, path: string) => Fault | undefined;

/** A proxy started by {@link startRegistryProxy}. */
export interface RegistryProxy {
  /** `127.0.0.1:<port>`, the base to give `OCIRegistry`. */
  readonly host: string;
  /** Requests since the last reset, in order. */
  readonly requests: SeenRequest[];
  /** Request body bytes forwarded to the registry since the last reset (uploads, as they arrive). */
  uploadedBytes(): number;
  /** Sets the fault rule (none by default). */
  fault(rule: FaultRule | undefined): void;
  reset(): void;
  close(): Promise<void>;
}

/** Starts the proxy on a free loopback port, forwarding to `upstream` (`127.0.0.1:<port>`). */
export async function startRegistryProxy(upstream: string): Promise<RegistryProxy> {
  const [upHost, upPort] = upstream.split(":") as [string, string];
  const agent = new http.Agent({ keepAlive: true });
  let rule: FaultRule | undefined;
  let requests: SeenRequest[] = [];
  let uploaded = 0;
  const server = http.createServer((req, res) => {
    const method = req.method ?? "";
    const path = req.url ?? "";
    const fault = rule?.(method, path);
    if (fault?.kind === "status") {
      requests.push({ method, path, status: fault.status, bytes: 0 });
      req.resume();
      res.writeHead(fault.status, { "content-type": "application/json", ...fault.headers }).end(fault.body ?? "");
      return;
    }
    let bytes = 0;
    const forward = http.request({ host: upHost, port: Number(upPort), method, path, headers: req.headers, agent }, (up) => {
      requests.push({ method, path, status: up.statusCode ?? 0, bytes });
      const send = (): void => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        res.flushHeaders();
        pipeWithFault(up, res, fault);
      };
      if (fault?.kind === "delay-headers") setTimeout(send, fault.ms).unref();
      else send();
    });
    forward.on("error", () => res.destroy());
    req.on("data", (chunk: Buffer) => {
      uploaded += chunk.length;
      bytes += chunk.length;
    });
    req.pipe(forward);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    uploadedBytes: () => uploaded,
    fault: (next) => (rule = next),
    reset: () => ((requests = []), (rule = undefined), (uploaded = 0)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}

function pipeWithFault(up: http.IncomingMessage, res: http.ServerResponse, fault: Fault | undefined): void {
  let sent = 0;
  up.on("data", (chunk: Buffer) => {
    if (fault?.kind === "truncate" || fault?.kind === "stall-body") {
      const limit = fault.kind === "truncate" ? fault.bytes : fault.afterBytes;
      const part = chunk.subarray(0, Math.max(0, limit - sent));
      sent += chunk.length;
      const cut = sent >= limit && fault.kind === "truncate";
      if (part.length > 0 || cut) res.write(part, () => cut && res.destroy()); // the connection dies mid-body
      return; // stall-body: never send the rest, never end
    }
    if (fault?.kind === "corrupt") {
      const copy = Buffer.from(chunk);
      if (sent === 0 && copy.length > 0) copy[0] = (copy[0] ?? 0) ^ 0xff;
      sent += copy.length;
      res.write(copy);
      return;
    }
    res.write(chunk);
  });
  up.on("end", () => {
    if (fault?.kind !== "stall-body" && fault?.kind !== "truncate") res.end();
  });
}
