import { z } from "zod";
import { checkTag } from "../../internal/schema/check-tag.js";
import { TOLERATION_KEY, hasCocoonTolerationKey } from "../../meta/index.js";

// The pod fields the cocoon contract reads, checked; every other field passes through as the
// server sent it (JSON: timestamps are strings). Loaded only when a pod watch parses or says why
// not; the watch's fast check (watched-pod-check.generated.ts) and WatchedPod are derived from it.

const StringMap = z.record(z.string(), z.string());
/** A `metav1.Time`: its RFC 3339 text, or `null` (the zero time). */
const Time = z.string().nullable();

const OwnerReferenceSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  uid: z.string(),
  controller: z.boolean().optional(),
});

const TolerationSchema = z.looseObject({
  key: z.string().optional(),
  operator: z.string().optional(),
  value: z.string().optional(),
  effect: z.string().optional(),
});

const PodMetadataSchema = z.looseObject({
  name: z.string(),
  namespace: z.string(),
  uid: z.string(),
  resourceVersion: z.string(),
  creationTimestamp: z.string().optional(),
  deletionTimestamp: z.string().optional(),
  labels: StringMap.optional(),
  annotations: StringMap.optional(),
  ownerReferences: z.array(OwnerReferenceSchema).optional(),
  finalizers: z.array(z.string()).optional(),
});

const PodSpecSchema = checkTag(
  z
    .looseObject({
      nodeName: z.string().optional(),
      nodeSelector: StringMap.optional(),
      tolerations: z.array(TolerationSchema).optional(),
      containers: z.array(z.looseObject({ name: z.string(), image: z.string().optional() })),
    })
    .refine((spec) => hasCocoonTolerationKey(spec.tolerations), {
      error: `a cocoon pod tolerates ${TOLERATION_KEY}`,
      path: ["tolerations"],
    }),
  { predicate: hasCocoonTolerationKey.name, field: "tolerations" },
);

// Every status field podStatusForVM reads is checked, so that it answers on any pod the watch accepts.
const PodConditionSchema = z.looseObject({
  type: z.string(),
  status: z.string(),
  reason: z.string().optional(),
  message: z.string().optional(),
  observedGeneration: z.int().optional(),
  lastProbeTime: Time.optional(),
  lastTransitionTime: Time.optional(),
});

const ContainerStateSchema = z.looseObject({
  running: z.looseObject({ startedAt: Time.optional() }).optional(),
  terminated: z.looseObject({ startedAt: Time.optional(), finishedAt: Time.optional() }).optional(),
});

const PodStatusSchema = z.looseObject({
  phase: z.string().optional(),
  podIP: z.string().optional(),
  podIPs: z.array(z.looseObject({ ip: z.string().optional() })).optional(),
  startTime: Time.optional(),
  conditions: z.array(PodConditionSchema).optional(),
  containerStatuses: z
    .array(z.looseObject({ name: z.string(), ready: z.boolean().optional(), state: ContainerStateSchema.optional() }))
    .optional(),
});

/**
 * A cocoon pod as the server sent it, its contract fields checked; see {@link WatchedPod}.
 *
 * @internal
 */
export const WatchedPodSchema = z.looseObject({
  // A list's items carry no type meta, watch events do: the output always has both.
  apiVersion: z.literal("v1").default("v1"),
  kind: z.literal("Pod").default("Pod"),
  metadata: PodMetadataSchema,
  spec: PodSpecSchema,
  status: PodStatusSchema.optional(),
});
