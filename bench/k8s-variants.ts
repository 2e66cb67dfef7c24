import { CoreV1Api, PatchStrategy, ServerConfiguration, createConfiguration, setHeaderOptions } from "@kubernetes/client-node";
import type { CocoonClients } from "../src/k8s/index.js";
import { patchAnnotations } from "../src/k8s/index.js";
import type { ControlPlane } from "../src/testing/index.js";
import type { CarefulClient } from "./careful-client.js";
import { fetchPatcher } from "./fetch-patch.js";
import type { Variant } from "./measure-async.js";
import type { RawPatcher } from "./raw-patch.js";
import { setRequestAgent } from "../src/k8s/transport/index.js";

/** The pod every variant patches. */
export const TARGET = { namespace: "bench", name: "target" } as const;
const KEY = "bench.cocoonstack.io/v";
const PATH = `/api/v1/namespaces/${TARGET.namespace}/pods/${TARGET.name}`;

/** The clients the variants send with: `createClients`' and the careful peer's. */
export interface BenchClients {
  readonly cocoon: CocoonClients;
  readonly careful: CarefulClient;
}

/**
 * The variants of the k8s bench, by `--only` name, floor first. Request `i` sets the annotation to
 * `v${i % 2}`: as `i` runs across all variants, every request is a real change. Each checks that the
 * server's copy holds its value.
 */
export function k8sVariants(plane: ControlPlane, clients: BenchClients, raw: RawPatcher): Record<string, Variant> {
  const fetchLayer = fetchPatcher(plane.connection, raw.agent);
  const stock = plane.kubeConfig.makeApiClient(CoreV1Api);
  const bare = new CoreV1Api(
    createConfiguration({
      baseServer: new ServerConfiguration(plane.server, {}),
      authMethods: {
        default: {
          getName: () => "bench constant token",
          applySecurityAuthentication: (context) => {
            context.setHeaderParam("Authorization", `Bearer ${plane.connection.adminToken}`);
            setRequestAgent(context, raw.agent);
          },
        },
      },
    }),
  );
  const merge = setHeaderOptions("Content-Type", PatchStrategy.MergePatch);
  const value = (i: number): string => `v${i % 2}`;
  const body = (i: number) => ({ metadata: { annotations: { [KEY]: value(i) } } });
  const params = (i: number) => ({ ...TARGET, body: body(i) });
  const check = (i: number, pod: unknown): void => {
    const annotations = (pod as { metadata?: { annotations?: Record<string, string> } }).metadata?.annotations;
    if (annotations?.[KEY] !== value(i)) throw new Error(`request ${i}: the server's copy does not hold the patch`);
  };
  return {
    floor: { name: "raw keep-alive node:https [floor]", run: async (i) => check(i, await raw.patch(PATH, body(i))) },
    fetch: {
      name: "client-node HTTP layer only (node-fetch), same agent",
      run: async (i) => check(i, await fetchLayer.patch(PATH, body(i))),
    },
    typed: {
      name: "client-node CoreV1Api, constant auth, same agent",
      run: async (i) => check(i, await bare.patchNamespacedPod(params(i), merge)),
    },
    helper: {
      name: "patchAnnotations on createClients",
      run: async (i) => check(i, await patchAnnotations(clients.cocoon, { metadata: { ...TARGET } }, { [KEY]: value(i) })),
    },
    direct: {
      name: "createClients: core.patchNamespacedPod",
      run: async (i) => check(i, await clients.cocoon.core.patchNamespacedPod(params(i), merge)),
    },
    careful: {
      name: "client-node, KubeConfig, 1 keep-alive agent [peer]",
      run: async (i) => check(i, await clients.careful.core.patchNamespacedPod(params(i), merge)),
    },
    stock: {
      name: "stock kc.makeApiClient(CoreV1Api)",
      run: async (i) => check(i, await stock.patchNamespacedPod(params(i), merge)),
    },
  };
}
