import { describe, expect, it } from "vitest";
import { controlPlaneCacheDir } from "./cache-dir.js";

describe("controlPlaneCacheDir", () => {
  it.each([
    ["HOME only", { HOME: "/home/me" }, "/home/me/.cache/cocoon-common/controlplane/v1.35.4"],
    ["XDG_CACHE_HOME wins over HOME", { HOME: "/home/me", XDG_CACHE_HOME: "/xdg" }, "/xdg/cocoon-common/controlplane/v1.35.4"],
    ["empty XDG_CACHE_HOME is unset", { HOME: "/home/me", XDG_CACHE_HOME: "" }, "/home/me/.cache/cocoon-common/controlplane/v1.35.4"],
    ["COCOON_CONTROLPLANE_CACHE is the root", { HOME: "/h", XDG_CACHE_HOME: "/xdg", COCOON_CONTROLPLANE_CACHE: "/ci/cp" }, "/ci/cp/v1.35.4"],
  ])("%s", (_name, env, expected) => {
    expect(controlPlaneCacheDir(env)).toBe(expected);
  });
});
