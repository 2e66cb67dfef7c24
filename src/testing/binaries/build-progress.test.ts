import { describe, expect, it } from "vitest";
import { formatElapsed, trackGoProgress } from "./build-progress.js";

describe("formatElapsed", () => {
  it.each([
    [0, "0.0s"],
    [12_345, "12.3s"],
    [59_949, "59.9s"],
    [60_000, "1m00s"],
    [125_400, "2m05s"],
    [3_725_000, "62m05s"],
  ])("%i ms is %s", (ms, expected) => {
    expect(formatElapsed(ms)).toBe(expected);
  });
});

describe("trackGoProgress", () => {
  it("counts compiled packages and downloads, ignoring other lines", () => {
    const lines: string[] = [];
    const progress = trackGoProgress("kube-apiserver", (line) => lines.push(line), 60_000);
    progress.line("go: downloading k8s.io/api v0.35.4");
    progress.line("k8s.io/apimachinery/pkg/runtime");
    progress.line("internal/goarch");
    progress.line("# some warning: with spaces");
    progress.done();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^kube-apiserver: 2 packages, 1 modules downloaded, \d+\.\ds elapsed, done$/);
  });

  it("reports periodically with the latest package while running", async () => {
    const lines: string[] = [];
    const progress = trackGoProgress("etcd", (line) => lines.push(line), 20);
    progress.line("go.etcd.io/etcd/server/v3/embed");
    await new Promise((resolve) => setTimeout(resolve, 70));
    progress.done();
    expect(lines[0]).toMatch(/^etcd: 1 packages, \d+\.\ds elapsed, latest go\.etcd\.io\/etcd\/server\/v3\/embed$/);
    expect(lines.filter((line) => line.includes("latest"))).toHaveLength(1); // nothing new, no repeat
    expect(lines.at(-1)).toMatch(/done$/);
  });
});
