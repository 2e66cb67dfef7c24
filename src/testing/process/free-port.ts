import { createServer } from "node:net";

/**
 * Returns a TCP port on 127.0.0.1 that was free a moment ago (the kernel's pick for port 0).
 *
 * Another process may take it before it is used; {@link startControlPlane} treats a failed start as an error.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error("no port assigned"))));
    });
  });
}
