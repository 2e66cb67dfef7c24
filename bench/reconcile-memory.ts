/**
 * Memory of the reconcile pass, for bench/compare.ts: the heap a pod of the set holds, and the
 * garbage one pass over the set leaves (bytes allocated during the pass and not kept: the used
 * heap's growth plus what every collection during the pass freed, read from V8's GC profiler).
 */
import v8 from "node:v8";
import vm from "node:vm";
import { type HotPathFixture, reconcile, reconcilePods } from "./hot-path-cases.js";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;
v8.setFlagsFromString("--no-expose-gc");

/** What one size of the pass costs in memory, in bytes. */
export interface ReconcileMemory {
  readonly heapPerPod: number;
  readonly garbagePerPass: number;
}

const used = (): number => v8.getHeapStatistics().used_heap_size;
const sink: { last?: unknown } = {};

/** Measures a pass over `n` pods (built as the timed case builds them). */
export function reconcileMemory(fixture: HotPathFixture, n: number): ReconcileMemory {
  gc();
  const before = used();
  const pods = reconcilePods(fixture, n);
  gc();
  const heapPerPod = (used() - before) / n;
  for (const pod of pods) sink.last = reconcile(pod); // warm, so the measured pass is optimised code
  gc();
  const start = used();
  const profiler = new v8.GCProfiler();
  profiler.start();
  for (const pod of pods) sink.last = reconcile(pod);
  const end = used();
  const freed = profiler
    .stop()
    .statistics.reduce((sum, s) => sum + s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize, 0);
  return { heapPerPod, garbagePerPass: end - start + freed };
}
