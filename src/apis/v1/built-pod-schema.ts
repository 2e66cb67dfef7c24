import { z } from "zod";
import { QUANTITY } from "../../internal/go/index.js";
import { goTag } from "./go-tags.js";

// The corev1.Pod the operator builds (k8s.io/api v0.35), its one definition: key order is Go's
// struct order, goTag says what zod cannot (no omitempty, a pointer, a quantity). The pod type of
// ./meta (`CocoonPod`) is this schema's output, and its Go table (meta/pods/pod-go-type.generated.ts,
// `npm run generate`) is derived from it. Neither loads zod: this file is read by the type checker
// and the generator only. `exactOptional` keeps optional fields assignable to client-node's `V1Pod`.

const always = <S extends z.ZodType>(schema: S): S => goTag(schema, { always: true });
const pointer = <S extends z.ZodType>(schema: S): S => goTag(schema, { ptr: true });
const StringMap = () => z.record(z.string(), z.string());
const QuantityText = () => goTag(z.string(), { type: QUANTITY });

const OwnerReference = z.object({
  apiVersion: always(z.string()),
  kind: always(z.string()),
  name: always(z.string()),
  uid: always(z.string()),
  controller: pointer(z.literal(true)),
  blockOwnerDeletion: pointer(z.literal(true)),
});

const EnvSource = () => pointer(z.object({ name: z.string().exactOptional(), optional: pointer(z.boolean()).exactOptional() }));

const EnvFrom = z.object({
  prefix: z.string().exactOptional(),
  configMapRef: EnvSource().exactOptional(),
  secretRef: EnvSource().exactOptional(),
});

const Resources = z.object({
  limits: z.record(z.string(), QuantityText()).exactOptional(),
  requests: z.record(z.string(), QuantityText()).exactOptional(),
  claims: z.array(z.object({ name: always(z.string()), request: z.string().exactOptional() })).exactOptional(),
});

const Container = z.object({
  name: always(z.string()),
  image: z.string(),
  envFrom: z.array(EnvFrom).exactOptional(),
  resources: Resources,
});

const HostnameTerm = z.object({
  matchExpressions: z.tuple([z.object({ key: always(z.string()), operator: always(z.literal("In")), values: z.tuple([z.string()]) })]),
});

// Go declares `required…` before `preferred…`: the first option of the union comes first.
const RequiredAffinity = z.object({
  nodeAffinity: pointer(
    z.object({ requiredDuringSchedulingIgnoredDuringExecution: pointer(z.object({ nodeSelectorTerms: always(z.tuple([HostnameTerm])) })) }),
  ),
});
const PreferredAffinity = z.object({
  nodeAffinity: pointer(
    z.object({
      preferredDuringSchedulingIgnoredDuringExecution: z.tuple([z.object({ weight: always(z.int()), preference: always(HostnameTerm) })]),
    }),
  ),
});

const Toleration = z.object({ key: z.string(), operator: z.literal("Exists"), effect: z.literal("NoExecute").exactOptional() });

/**
 * A pod as the operator builds it; see `CocoonPod` in ./meta.
 *
 * @internal
 */
export const BuiltPodSchema = z.object({
  metadata: z.object({
    name: z.string(),
    namespace: z.string().exactOptional(),
    labels: StringMap(),
    annotations: StringMap(),
    ownerReferences: z.tuple([OwnerReference]),
  }),
  spec: z.object({
    containers: always(z.tuple([Container])),
    terminationGracePeriodSeconds: pointer(z.int()),
    nodeSelector: StringMap(),
    serviceAccountName: z.string().exactOptional(),
    nodeName: z.string().exactOptional(),
    affinity: pointer(z.union([RequiredAffinity, PreferredAffinity])).exactOptional(),
    tolerations: z.array(Toleration),
  }),
  status: z.strictObject({}),
});

/**
 * The schema's output: `CocoonPod` of ./meta.
 *
 * @internal
 */
export type BuiltPod = z.output<typeof BuiltPodSchema>;
