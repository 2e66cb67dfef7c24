// The manifest structs as encoding/json sees them, for the typed decoder: cocoon's
// `manifest.OCIManifest` and its descriptors, and the few fields `manifest.Classify` reads.
import { INT64_SAFE, STRING, always, map, oe, ptr, slice, struct } from "../internal/go/index.js";

/** `manifest.Descriptor`. */
export const DESCRIPTOR = struct(
  always("mediaType", STRING),
  always("digest", STRING),
  always("size", INT64_SAFE),
  oe("annotations", map(STRING)),
  oe("artifactType", STRING),
);

/** One entry of an image index: the descriptor fields and the platform it is for. */
export const INDEX_MANIFEST = struct(
  always("mediaType", STRING),
  always("digest", STRING),
  always("size", INT64_SAFE),
  oe("platform", ptr(struct(always("architecture", STRING), always("os", STRING)))),
);

/** `manifest.OCIManifest`. */
export const OCI_MANIFEST = struct(
  always("schemaVersion", INT64_SAFE),
  oe("mediaType", STRING),
  oe("artifactType", STRING),
  always("config", DESCRIPTOR),
  always("layers", slice(DESCRIPTOR)),
  oe("manifests", slice(INDEX_MANIFEST)),
  oe("subject", ptr(DESCRIPTOR)),
  oe("annotations", map(STRING)),
);

/** The anonymous struct `manifest.Classify` decodes into. */
export const CLASSIFIED_MANIFEST = struct(
  oe("mediaType", STRING),
  oe("artifactType", STRING),
  always("config", struct(oe("mediaType", STRING))),
);
