import { describe, expect, it } from "vitest";
import { controlPlaneCacheDir, registryCacheDir } from "./cache-dir.js";

describe("controlPlaneCacheDir", () => {
  it.each([
    ["HOME only", { HOME: "/home/me" }, "/home/me/.cache/cocoon-common/controlplane/v1.35.4"],
    ["XDG_CACHE_HOME wins over HOME", { HOME: "/home/me", XDG_CACHE_HOME: "/xdg" }, "/xdg/cocoon-common/controlplane/v1.35.4"],
    ["empty XDG_CACHE_HOME is unset", { HOME: "/home/me", XDG_CACHE_HOME: "" }, "/home/me/.cache/cocoon-common/controlplane/v1.35.4"],
    [
      "COCOON_CONTROLPLANE_CACHE is the root",
      { HOME: "/h", XDG_CACHE_HOME: "/xdg", COCOON_CONTROLPLANE_CACHE: "/ci/cp" },
      "/ci/cp/v1.35.4",
    ],
    [
      "COCOON_KUBERNETES_VERSION picks the release's folder",
      { HOME: "/h", COCOON_KUBERNETES_VERSION: "1.37" },
      "/h/.cache/cocoon-common/controlplane/v1.37.2",
    ],
  ])("%s", (_name, env, expected) => {
    expect(controlPlaneCacheDir(env)).toBe(expected);
  });
});

describe("registryCacheDir", () => {
  it.each([
    ["HOME only", { HOME: "/home/me" }, "/home/me/.cache/cocoon-common/registry/v3.1.2"],
    ["XDG_CACHE_HOME wins over HOME", { HOME: "/home/me", XDG_CACHE_HOME: "/xdg" }, "/xdg/cocoon-common/registry/v3.1.2"],
    ["COCOON_REGISTRY_CACHE is the root", { HOME: "/h", COCOON_REGISTRY_CACHE: "/ci/reg" }, "/ci/reg/v3.1.2"],
  ])("%s", (_name, env, expected) => {
    expect(registryCacheDir(env)).toBe(expected);
  });
});
