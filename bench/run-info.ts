import { readFileSync } from "node:fs";
import os from "node:os";
import { median } from "./measure-async.js";

/** The machine a run is on: CPU model, core count, OS and kernel. */
export function machine(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model.trim() ?? "unknown CPU"}, ${cpus.length} cores, ${os.type()} ${os.release()}`;
}

/** One line naming the run: date (UTC, to the minute), machine and Node version, plus `extra` (e.g. Go's version). */
export function runLine(extra = ""): string {
  return `Run ${new Date().toISOString().slice(0, 16)}Z on ${machine()}; Node ${process.version}${extra ? `; ${extra}` : ""}.`;
}

/** The load average now, 1 / 5 / 15 min, as a sentence. */
export function loadLine(): string {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");
  return `Load average at the end (1 / 5 / 15 min): ${load}.`;
}

/** `values` as median [min–max], to `digits` decimals. */
export function spread(values: readonly number[], digits = 2): string {
  return `${median(values).toFixed(digits)} [${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}]`;
}

/** Nanoseconds for people: `850 ns`, `12.3 µs`. */
export function formatNs(ns: number): string {
  return ns >= 10_000 ? `${(ns / 1000).toFixed(1)} µs` : `${ns.toFixed(0)} ns`;
}

/** The installed `@kubernetes/client-node` version. */
export function clientNodeVersion(): string {
  const manifest = new URL("../node_modules/@kubernetes/client-node/package.json", import.meta.url);
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}
