// Zero values in patch/patchStatus on a real API server: for each case, one CocoonSet is patched by
// our `patch`/`patchStatus` and a twin by the body Go's client.MergeFrom sends (asked of the Go
// oracle), and what each server copy ends up holding must be the same.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { patch, patchStatus, type CocoonClients, type KubeObject } from "../../src/k8s/index.js";
import { sendPatch } from "../../src/k8s/patch/send-patch.js";
import { Oracle } from "../conformance/support/oracle.js";
import { ensureOracle, goVersion } from "../conformance/support/toolchain.js";
import { closeProxiedSuite, openProxiedSuite, type RecordingProxy } from "./k8s-counting-proxy.js";

const MERGE = "application/merge-patch+json";
const GROUP = { group: "cocoonset.cocoonstack.io", version: "v1", plural: "cocoonsets" } as const;

type Json = Record<string, unknown>;
interface Case {
  name: string;
  /** What the set holds before: metadata annotations, spec and status. */
  initial: { annotations?: Record<string, string>; spec?: Json; status?: Json };
  /** The mutation, on a plain JSON copy. */
  mutate: (copy: Json & { metadata: Json; spec: Json; status?: Json }) => void;
  status?: boolean;
  /** Our body, byte for byte (`undefined`: no request). */
  ours: string | undefined;
}

const CASES: Case[] = [
  {
    name: 'status.phase set to ""',
    initial: { status: { phase: "Running" } },
    status: true,
    mutate: (c) => void (c.status = { ...c.status, phase: "" }),
    ours: '{"status":{"phase":null}}',
  },
  {
    name: "observedGeneration 0 on a set without status",
    initial: {},
    status: true,
    mutate: (c) => void (c.status = { observedGeneration: 0 }),
    ours: undefined,
  },
  { name: "an empty annotations map", initial: {}, mutate: (c) => void (c.metadata["annotations"] = {}), ours: undefined },
  {
    name: "the last annotation deleted",
    initial: { annotations: { k: "v" } },
    mutate: (c) => void (c.metadata["annotations"] = {}),
    ours: '{"metadata":{"annotations":{"k":null}}}',
  },
  {
    name: "spec.agent.replicas set to 0",
    initial: { spec: { agent: { image: "img", replicas: 2 } } },
    mutate: (c) => void ((c.spec["agent"] as Json)["replicas"] = 0),
    ours: '{"spec":{"agent":{"replicas":null}}}',
  },
  {
    name: "spec.suspend set to false",
    initial: { spec: { suspend: true, agent: { image: "img" } } },
    mutate: (c) => void (c.spec["suspend"] = false),
    ours: '{"spec":{"suspend":null}}',
  },
  {
    name: "an empty toolbox list",
    initial: { spec: { agent: { image: "img" }, toolboxes: [{ name: "t" }] } },
    mutate: (c) => void (c.spec["toolboxes"] = []),
    ours: '{"spec":{"toolboxes":null}}',
  },
  {
    name: "a status counter set to 0",
    initial: { status: { readyAgents: 2 } },
    status: true,
    mutate: (c) => void (c.status = { ...c.status, readyAgents: 0 }),
    ours: '{"status":{"readyAgents":0}}',
  },
];

const version = goVersion();
let oracle: Oracle;
let ns: string;
let proxy: RecordingProxy;
let viaProxy: CocoonClients;
let admin: CocoonClients;
let counter = 0;

beforeAll(async () => {
  if (version === undefined) return;
  oracle = new Oracle(await ensureOracle(version));
  ({ ns, proxy, viaProxy, admin } = await openProxiedSuite("k8s-patch-zero"));
}, 600_000);

afterAll(async () => {
  if (version === undefined) return;
  await oracle.close();
  await closeProxiedSuite({ proxy, viaProxy, admin });
});

/** Creates a set in the initial state and returns it as read back. */
async function createSet(initial: Case["initial"]): Promise<KubeObject & Json> {
  const name = `zero-${String(++counter)}`;
  const spec = initial.spec ?? { agent: { image: "img" } };
  const metadata = { name, ...(initial.annotations ? { annotations: initial.annotations } : {}) };
  await admin.customObjects.createNamespacedCustomObject({
    ...GROUP,
    namespace: ns,
    body: { apiVersion: "cocoonset.cocoonstack.io/v1", kind: "CocoonSet", metadata, spec },
  });
  if (initial.status) {
    await sendPatch(
      admin,
      { kind: "CocoonSet", name, namespace: ns },
      { body: JSON.stringify({ status: initial.status }), contentType: MERGE, status: true },
    );
  }
  return (await admin.customObjects.getNamespacedCustomObject({ ...GROUP, namespace: ns, name })) as KubeObject & Json;
}

/** What the server holds, without what differs between two objects by construction. */
async function stored(name: string): Promise<Json> {
  const { metadata, ...rest } = (await admin.customObjects.getNamespacedCustomObject({ ...GROUP, namespace: ns, name })) as Json & {
    metadata: Json;
  };
  const { name: _n, uid: _u, resourceVersion: _r, creationTimestamp: _c, managedFields: _m, generation, ...kept } = metadata;
  return { ...rest, metadata: { ...kept, generation } };
}

describe.skipIf(version === undefined)("zero values in patch bodies, stored by a real API server", () => {
  it.each(CASES)("$name: what our body stores is what Go's body stores", async (c) => {
    const ours = await createSet(c.initial);
    const twin = await createSet(c.initial);
    const after = structuredClone(ours) as Json & { metadata: Json; spec: Json; status?: Json };
    c.mutate(after);

    proxy.reset();
    await (c.status ? patchStatus : patch)(viaProxy, ours, (copy) => void Object.assign(copy, structuredClone(after)));
    expect(proxy.requests.map((r) => r.body)).toEqual(c.ours === undefined ? [] : [c.ours]);

    const twinAfter = structuredClone(twin) as typeof after;
    c.mutate(twinAfter);
    const go = await oracle.ask<{ patch?: string; error?: string }>({
      op: "mergeFrom",
      args: { kind: "CocoonSet", before: twin, after: twinAfter, optimisticLock: false },
    });
    if (go.patch === undefined) throw new Error(`Go refused the case: ${String(go.error)}`);
    const target = { kind: "CocoonSet" as const, name: twin.metadata!.name!, namespace: ns };
    await sendPatch(admin, target, { body: go.patch, contentType: MERGE, status: c.status });

    expect(await stored(ours.metadata!.name!)).toEqual(await stored(twin.metadata!.name!));
  });
});

describe.skipIf(version === undefined)("differences from Go: deleting the last annotation", () => {
  it('keeps a key another writer added since the read, where Go\'s {"annotations":null} wipes it', async () => {
    const ours = await createSet({ annotations: { k: "v" } });
    const twin = await createSet({ annotations: { k: "v" } });
    for (const set of [ours, twin]) {
      await sendPatch(
        admin,
        { kind: "CocoonSet", name: set.metadata!.name!, namespace: ns },
        { body: '{"metadata":{"annotations":{"other":"x"}}}', contentType: MERGE },
      );
    }
    const emptied = (copy: KubeObject): void => void (copy.metadata!.annotations = {});

    await patch(admin, ours, emptied);
    const twinAfter = structuredClone(twin);
    emptied(twinAfter);
    const go = await oracle.ask<{ patch?: string }>({
      op: "mergeFrom",
      args: { kind: "CocoonSet", before: twin, after: twinAfter, optimisticLock: false },
    });
    expect(go.patch).toBe('{"metadata":{"annotations":null}}');
    await sendPatch(admin, { kind: "CocoonSet", name: twin.metadata!.name!, namespace: ns }, { body: go.patch!, contentType: MERGE });

    expect((await stored(ours.metadata!.name!))["metadata"]).toMatchObject({ annotations: { other: "x" } });
    expect((await stored(twin.metadata!.name!))["metadata"]).not.toHaveProperty("annotations");
  });
});
