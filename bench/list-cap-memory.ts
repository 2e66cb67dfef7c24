/**
 * What one oversized list answer costs a typed watch on `createClients`' clients: a plain-HTTP API
 * server answers the pod list with a valid but padded `PodList` of `--mib` MiB (whitespace inside
 * the JSON, chunked, so no `Content-Length` warns), and each fresh child process starts
 * `watchCocoonPods` with the default `maxListBytes` (64 MiB), waits for its first event (`synced`
 * when the list was read whole, `retrying` when it was refused), and prints that event, the
 * seconds to it and its peak RSS (`VmHWM`). `--rounds` children one after another; median [min–max].
 *
 * Run: npx tsx bench/list-cap-memory.ts [--mib 256] [--rounds 3]
 * (Against an older commit: copy this file into a checkout of it and run it there.)
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";

const { values: args } = parseArgs({
  options: {
    mib: { type: "string", default: "256" },
    rounds: { type: "string", default: "3" },
    child: { type: "string" },
  },
});

if (args.child === undefined) await parent();
else await child(args.child);

async function parent(): Promise<void> {
  const mib = Number(args.mib);
  const head = Buffer.from('{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"10"},"items":[]');
  const pad = Buffer.alloc(2 ** 20, " ");
  const server = http.createServer((req, res) => {
    if (new URL(`http://x${req.url ?? ""}`).searchParams.get("watch") === "true") {
      res.writeHead(200, { "content-type": "application/json", "transfer-encoding": "chunked" });
      return;
    }
    res.writeHead(200, { "content-type": "application/json", "transfer-encoding": "chunked" });
    res.write(head);
    let sent = 0;
    const more = (): void => {
      while (sent < mib) {
        sent++;
        if (!res.write(pad)) return void res.once("drain", more);
      }
      res.end("}");
    };
    more();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const dir = mkdtempSync(path.join(tmpdir(), "list-cap-"));
  const kubeconfig = path.join(dir, "kubeconfig");
  const { port } = server.address() as AddressInfo;
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "http://127.0.0.1:${String(port)}", insecure-skip-tls-verify: true}\nusers:\n- name: u\n  user: {token: t}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n`,
  );
  const script = fileURLToPath(import.meta.url);
  const runs: { event: string; seconds: number; hwmMiB: number }[] = [];
  for (let round = 0; round < Number(args.rounds); round++) {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script, "--child", kubeconfig], {
      cwd: path.resolve(path.dirname(script), ".."),
      maxBuffer: 2 ** 20,
    });
    runs.push(JSON.parse(stdout) as { event: string; seconds: number; hwmMiB: number });
    server.closeAllConnections();
  }
  server.close();
  rmSync(dir, { recursive: true, force: true });
  const spread = (values: number[], digits: number): string => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (i: number): string => (sorted[i] ?? NaN).toFixed(digits);
    return `${at(Math.floor(sorted.length / 2))} [${at(0)}–${at(sorted.length - 1)}]`;
  };
  console.log(
    `list of ${String(mib)} MiB (chunked), ${String(runs.length)} processes; first event: ${[...new Set(runs.map((r) => r.event))].join(", ")}`,
  );
  console.log(
    `peak RSS ${spread(
      runs.map((r) => r.hwmMiB),
      0,
    )} MiB; seconds to the first event ${spread(
      runs.map((r) => r.seconds),
      2,
    )}`,
  );
}

async function child(kubeconfig: string): Promise<void> {
  const { createClients, loadKubeConfig, watchCocoonPods } = await import("../src/k8s/index.js");
  const { isCocoonError } = await import("../src/errors.js");
  const clients = createClients(loadKubeConfig({ env: { KUBECONFIG: kubeconfig } }));
  const controller = new AbortController();
  const started = performance.now();
  let first = "";
  for await (const event of watchCocoonPods(clients, { namespace: "ns", signal: controller.signal })) {
    first =
      event.type === "retrying" ? `retrying ${isCocoonError(event.error) ? event.error.code : (event.error as Error).name}` : event.type;
    break;
  }
  const seconds = (performance.now() - started) / 1000;
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
  clients.close();
  process.stdout.write(JSON.stringify({ event: first, seconds, hwmMiB: Number(hwm) / 1024 }));
  process.exit(0);
}
