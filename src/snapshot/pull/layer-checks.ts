import { descriptorTitle, type OCIManifest } from "../../oci/manifest-types.js";
import { ArtifactType, isSnapshotLayerMediaType, isZstdMediaType, OCIAnnotation } from "../../oci/media-types.js";
import type { SnapshotConfig } from "../../oci/snapshot-config.js";
import { checkRegistryNames } from "../artifact-checks.js";
import { formatError } from "../errors.js";

/** Go's `validateSnapshotLayers`, then {@link checkRegistryNames}: fails before any byte is written. */
export function validateSnapshotLayers(m: OCIManifest, cfg: SnapshotConfig): void {
  const encoded = m.artifactType === ArtifactType.SnapshotV2;
  for (const layer of m.layers ?? []) {
    if (layer.size < 0) throw formatError(`layer ${layer.digest} has negative size ${layer.size}`);
    if (!isSnapshotLayerMediaType(layer.mediaType)) {
      throw formatError(
        `layer ${layer.digest} has unsupported mediaType ${JSON.stringify(layer.mediaType)} (snapshot needs a newer reader)`,
      );
    }
    if (descriptorTitle(layer) === "") {
      throw formatError(`layer ${layer.digest} missing ${OCIAnnotation.Title} annotation`);
    }
    if (!encoded && isZstdMediaType(layer.mediaType)) {
      throw formatError(`layer ${layer.digest} is zstd-compressed but manifest is not ${ArtifactType.SnapshotV2}`);
    }
  }
  if (!encoded) {
    for (const [name, f] of Object.entries(cfg.files ?? {})) {
      if ((f.chunks?.length ?? 0) > 0) throw formatError(`file ${name} is chunked but manifest is not ${ArtifactType.SnapshotV2}`);
    }
  }
  checkRegistryNames(m, cfg);
}
