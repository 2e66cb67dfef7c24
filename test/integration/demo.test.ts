/**
 * `npm run demo` (demo/seat-release.ts) run as users run it: a child process that starts its own
 * control plane and registry (with the suite's binaries, so nothing is built), plays the seven
 * steps and stops both on exit and on Ctrl-C.
 *
 * Each run gets its own TMPDIR, so "nothing left behind" is checkable: no `cocoon-controlplane-*`
 * or `cocoon-registry-*` folder in it, and no process whose command line names it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, inject, it } from "vitest";
import { CheckFailed, check } from "../../demo/report.js";
import { controlPlaneBinaries } from "./helpers.js";

const repoRoot = resolve(import.meta.dirname, "../..");
const STEPS = [1, 2, 3, 4, 5, 6, 7] as const;

interface DemoRun {
  /** Resolves once the demo exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  /** Resolves once stdout contains `text`. */
  printed(text: string): Promise<void>;
  /** Sends `signal` to the demo process. */
  kill(signal: NodeJS.Signals): void;
}

let tmp: string | undefined;

afterEach(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  tmp = undefined;
});

function runDemo(): DemoRun {
  tmp = mkdtempSync(join(tmpdir(), "cocoon-demo-test-"));
  const { etcd, kubeApiserver } = controlPlaneBinaries();
  const registry = inject("registryBinary");
  const env = {
    ...process.env,
    TMPDIR: tmp,
    TEST_ASSET_ETCD: etcd,
    TEST_ASSET_KUBE_APISERVER: kubeApiserver,
    TEST_ASSET_REGISTRY: registry,
    FORCE_COLOR: "0",
  };
  const child = spawn(process.execPath, ["--import", "tsx", "demo/seat-release.ts"], {
    cwd: repoRoot,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const listeners = new Set<() => void>();
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((done) =>
    child.on("close", (code, signal) => {
      for (const listener of listeners) listener();
      done({ code, signal, stdout, stderr });
    }),
  );
  return {
    exited,
    printed: (text) =>
      new Promise((done, fail) => {
        const look = () => {
          if (stdout.includes(text)) {
            listeners.delete(look);
            done();
          } else if (child.exitCode !== null) {
            listeners.delete(look);
            fail(new Error(`the demo exited without printing ${text}:\n${stdout}\n${stderr}`));
          }
        };
        listeners.add(look);
        look();
      }),
    kill: (signal) => child.kill(signal),
  };
}

/** Folders and processes of a control plane the demo started under `dir`, still there. */
function leftovers(dir: string): string[] {
  const folders = readdirSync(dir).filter((name) => name.startsWith("cocoon-controlplane-") || name.startsWith("cocoon-registry-"));
  const processes = readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
        return cmdline.includes(dir) ? [`pid ${pid}: ${cmdline.slice(0, 120)}`] : [];
      } catch {
        return []; // the process ended while we looked
      }
    });
  return [...folders, ...processes];
}

/** Waits until nothing is left under `dir` (SIGKILLed processes take a moment to go); returns what is left. */
async function eventuallyClean(dir: string, timeoutMs = 15_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  let left = leftovers(dir);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 100));
    left = leftovers(dir);
  }
  return left;
}

describe("npm run demo", () => {
  it("plays the seven steps, prints each check, exits 0 and stops its control plane and registry", { timeout: 120_000 }, async () => {
    const demo = runDemo();
    const { code, stdout, stderr } = await demo.exited;

    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toMatch(/^control plane ready at https:\/\/127\.0\.0\.1:\d+ in \d+\.\d s$/m);
    expect(stdout).toMatch(/^registry ready at http:\/\/127\.0\.0\.1:\d+ in \d+ ms$/m);
    for (const n of STEPS) {
      expect(stdout).toMatch(new RegExp(`^${n}\\. \\S`, "m"));
      expect(stdout).toMatch(new RegExp(`^ {3}✓ check ${n}: \\S`, "m"));
    }
    expect(stdout).not.toContain("✗");
    // The object state that proves each step.
    expect(stdout).toContain("spec: hibernatePolicy=release requires agent.replicas=0 and no toolboxes");
    expect(stdout).toContain("vm.cocoonstack.io/lifecycle-state=hibernated  vm.cocoonstack.io/lifecycle-observed-generation=2");
    expect(stdout).toContain("cocoonset.cocoonstack.io/hibernated-on-node=cocoon-node-1");
    expect(stdout).toContain("vm.cocoonstack.io/keep-snapshot-on-delete=true");
    expect(stdout).toContain(
      "planSnapshotCache: evict [vk-demo-old-0], keep vk-demo-sandbox-0 (hinted to cocoon-node-1); allocatable 92 GiB of 100",
    );
    expect(stdout).toContain("affinity: preferred weight=100 kubernetes.io/hostname In [cocoon-node-1]");
    expect(stdout).toContain("cocoonset.cocoonstack.io/hibernated-on-node=<unset>");
    // The registry verifies the snapshot: the release's probe, the wake's (token cached), the fresh boot, the outage.
    expect(stdout).toContain("hasHibernateSnapshot(vk-demo-sandbox-0): present (2 registry requests, 1 token request)");
    expect(stdout).toContain("hasHibernateSnapshot(vk-demo-sandbox-0): present (1 registry request, 0 token requests) -> restore");
    expect(stdout).toContain("hasHibernateSnapshot(vk-demo-sandbox-0): absent (1 registry request, 0 token requests) -> fresh boot");
    expect(stdout).toContain(
      "hasHibernateSnapshot(vk-demo-sandbox-0): error ERR_REGISTRY_TRANSPORT (3 registry requests, 0 token requests)",
    );
    expect(stdout).toMatch(/^all 7 checks hold, \d+\.\d s after the start$/m);
    expect(stdout).toMatch(/^control plane stopped in \d+\.\d s$/m);
    expect(await eventuallyClean(tmp!)).toEqual([]);
  });

  it("stops the control plane on Ctrl-C (SIGINT) and exits 130", { timeout: 120_000 }, async () => {
    const demo = runDemo();
    await demo.printed("✓ check 1:");
    demo.kill("SIGINT");
    const { code, stdout, stderr } = await demo.exited;

    expect(code).toBe(130);
    expect(stderr).toBe("\ninterrupted: stopping the control plane and the registry\n");
    expect(stdout).not.toContain("all 7 checks hold");
    expect(await eventuallyClean(tmp!)).toEqual([]);
  });
});

describe("the demo's check", () => {
  it("prints one line when every fact holds", () => {
    const lines: string[] = [];
    const log = console.log;
    console.log = (line: string) => void lines.push(line);
    try {
      check(4, "the seat is free", { "the pod is gone": true, "the flag landed": true });
    } finally {
      console.log = log;
    }
    expect(lines).toEqual(["   ✓ check 4: the seat is free"]);
  });

  it("throws CheckFailed naming every fact that does not hold", () => {
    const run = () => check(4, "the seat is free", { "the pod is gone": false, "the flag landed": true, "the hint is set": false });
    expect(run).toThrow(CheckFailed);
    expect(run).toThrow("check 4 failed: the seat is free\n   not true: the pod is gone\n   not true: the hint is set");
  });
});
