// The corev1.Pod fields a built pod holds, in Go's struct order, with their omitempty tags
// (k8s.io/api v0.35). Structs are never omitted by encoding/json, so `resources` and `status` are
// always written.
import {
  ENV_FROM_SOURCE,
  INT64_SAFE,
  OWNER_REFERENCE,
  RESOURCE_REQUIREMENTS,
  STRING,
  always,
  map,
  oe,
  ptr,
  slice,
  struct,
} from "../../internal/go/index.js";

const selectorTerm = struct(
  oe("matchExpressions", slice(struct(always("key", STRING), always("operator", STRING), oe("values", slice(STRING))))),
  oe("matchFields", slice(struct(always("key", STRING), always("operator", STRING), oe("values", slice(STRING))))),
);

/** `corev1.Pod`, as far as a built pod fills it. */
export const POD = struct(
  oe(
    "metadata",
    struct(
      oe("name", STRING),
      oe("generateName", STRING),
      oe("namespace", STRING),
      oe("labels", map(STRING)),
      oe("annotations", map(STRING)),
      oe("ownerReferences", slice(OWNER_REFERENCE)),
    ),
  ),
  oe(
    "spec",
    struct(
      always(
        "containers",
        slice(
          struct(
            always("name", STRING),
            oe("image", STRING),
            oe("envFrom", slice(ENV_FROM_SOURCE)),
            oe("resources", RESOURCE_REQUIREMENTS),
          ),
        ),
      ),
      oe("terminationGracePeriodSeconds", ptr(INT64_SAFE)),
      oe("nodeSelector", map(STRING)),
      oe("serviceAccountName", STRING),
      oe("nodeName", STRING),
      oe(
        "affinity",
        ptr(
          struct(
            oe(
              "nodeAffinity",
              ptr(
                struct(
                  oe("requiredDuringSchedulingIgnoredDuringExecution", ptr(struct(always("nodeSelectorTerms", slice(selectorTerm))))),
                  oe(
                    "preferredDuringSchedulingIgnoredDuringExecution",
                    slice(struct(always("weight", INT64_SAFE), always("preference", selectorTerm))),
                  ),
                ),
              ),
            ),
          ),
        ),
      ),
      oe("tolerations", slice(struct(oe("key", STRING), oe("operator", STRING), oe("value", STRING), oe("effect", STRING)))),
    ),
  ),
  oe("status", struct()),
);
