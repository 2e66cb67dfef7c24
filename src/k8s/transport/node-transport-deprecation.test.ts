import { IsomorphicFetchHttpLibrary, KubeConfig } from "@kubernetes/client-node";
import { afterEach, describe, expect, it } from "vitest";
import { createClients } from "../clients.js";
import { NODE_TRANSPORT_WARNING_CODE, createHttpsTransport } from "./node-transport-deprecation.js";

const MESSAGE =
  'the node:https transport (createClients\' transport: "node", createHttpsTransport) is deprecated and ignored: ' +
  "requests go out through client-node's own HTTP library";

function kubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser({ name: "c", server: "https://127.0.0.1:6443", skipTLSVerify: true }, { name: "u", token: "t" });
  return kc;
}

/** The warnings `run` makes the process emit (they are emitted on the next tick). */
async function warningsOf(run: () => void): Promise<string[]> {
  const seen: string[] = [];
  const listener = (warning: Error & { code?: string }): void =>
    void seen.push(`${warning.name} ${String(warning.code)}: ${warning.message}`);
  process.on("warning", listener);
  try {
    run();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off("warning", listener);
  }
  return seen;
}

describe("the deprecated node:https transport", () => {
  const made: { close(): void }[] = [];
  afterEach(() => made.splice(0).forEach((c) => c.close()));

  it('warns for nothing else: no transport, or transport: "fetch"', async () => {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- "fetch" is the deprecated option's other value
    expect(await warningsOf(() => made.push(createClients(kubeConfig()), createClients(kubeConfig(), { transport: "fetch" })))).toEqual([]);
  });

  it('warns once per process, however often transport: "node" or createHttpsTransport is used', async () => {
    const warnings = await warningsOf(() => {
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the deprecated option must still be accepted
      made.push(createClients(kubeConfig(), { transport: "node" }), createClients(kubeConfig(), { transport: "node" }));
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the deprecated function must still work
      createHttpsTransport();
    });
    expect(warnings).toEqual([`DeprecationWarning ${NODE_TRANSPORT_WARNING_CODE}: ${MESSAGE}`]);
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the deprecated option must still be accepted
    expect(await warningsOf(() => made.push(createClients(kubeConfig(), { transport: "node" })))).toEqual([]);
  });

  it("createHttpsTransport returns client-node's own HTTP library", () => {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the deprecated function must still work
    expect(createHttpsTransport()).toBeInstanceOf(IsomorphicFetchHttpLibrary);
  });
});
