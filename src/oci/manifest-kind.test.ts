import { describe, expect, it } from "vitest";
import { ManifestKind } from "./index.js";

describe("ManifestKind", () => {
  it("holds the five kinds Go's manifest.Kind tells apart", () => {
    expect(ManifestKind).toEqual({
      Unknown: "unknown",
      ContainerImage: "container-image",
      CloudImage: "cloud-image",
      Snapshot: "snapshot",
      ImageIndex: "image-index",
    });
  });
});
