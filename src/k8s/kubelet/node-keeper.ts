import { kubeTimeText } from "../../internal/kube-time.js";
import type { V1Lease, V1Node, V1NodeStatus } from "@kubernetes/client-node";
import { isNotFound } from "../api-errors.js";
import type { Logger } from "../logger.js";
import { runTicker } from "../time.js";
import { createOrAdoptNode } from "./adopt-node.js";
import { notReady, patchNodeStatus, stampConditions, type SentCondition } from "./node-heartbeat.js";
import { renewLease } from "./node-lease.js";
import type { NodeWrites } from "./node-writes.js";
import { sameOnWire } from "./same-on-wire.js";

/** How the keeper runs, every default applied. @internal */
export interface KeeperSettings {
  readonly signal: AbortSignal;
  readonly leaseDurationSeconds: number;
  readonly leaseRenewMs: number;
  readonly statusReportMs: number;
  readonly requestTimeoutMs: number;
  readonly logger?: Logger | undefined;
  /** Write Ready=False when the signal aborts (the virtual kubelet's stop); `false` leaves the node as it is. */
  readonly notReadyOnStop: boolean;
}

/** What the keeper hands back. @internal */
export interface Keeper {
  /** The server's copy of the node after the last write. */
  readonly node: V1Node;
  /** Sends `status` now if it differs from the last one sent; resolves `true` when it was sent. */
  setStatus(status: V1NodeStatus): Promise<boolean>;
  /** Resolves once the keeper has stopped (after the signal, and the stop write); never rejects. */
  readonly stopped: Promise<void>;
}

/** Message of the Ready condition the keeper writes when it stops. @internal */
export const STOPPED_MESSAGE = "the virtual kubelet stopped";

/**
 * Creates or adopts `body`'s Node, writes its status and Lease, then renews the Lease every
 * `leaseRenewMs` and re-sends the status (fresh heartbeat times) every `statusReportMs` or when
 * {@link Keeper.setStatus} changed it, until the signal aborts. Failures after the start are
 * reported to the logger and retried on the next tick; a node deleted meanwhile is created again.
 *
 * @throws What the first create (or adoption) and status write throw.
 * @internal
 */
export async function startKeeper(writes: NodeWrites, body: V1Node, settings: KeeperSettings): Promise<Keeper> {
  const { signal, logger } = settings;
  signal.throwIfAborted();
  const name = body.metadata?.name ?? "";
  // Each request ends at the deadline or the stop, whichever comes first; the stop's own write has only the deadline.
  const deadline = (until: "stop" | "deadline" = "stop"): AbortSignal =>
    until === "deadline"
      ? AbortSignal.timeout(settings.requestTimeoutMs)
      : AbortSignal.any([signal, AbortSignal.timeout(settings.requestTimeoutMs)]);
  const report = (what: string, err: unknown): void => {
    if (signal.aborted && what !== "mark the node not ready") return; // a request cut short by the stop
    logger?.error(`keepNode ${name}: ${what}: ${err instanceof Error ? err.message : String(err)}`, { err, node: name });
  };

  let node = await createOrAdoptNode(writes, body, deadline());
  let status = body.status;
  let sent: SentCondition[] = (node.status?.conditions ?? []).map((c) => ({
    type: c.type,
    status: c.status,
    lastHeartbeatTime: "",
    lastTransitionTime: kubeTimeText(c.lastTransitionTime) ?? "",
  }));
  let statusAt = 0;
  let dirty = true;
  let registered = true;
  let lease: V1Lease | undefined;

  const writeStatus = async (stopping = false): Promise<void> => {
    if (status === undefined) return;
    const now = new Date();
    const conditions = stampConditions(
      stopping ? notReady(status.conditions ?? [], STOPPED_MESSAGE) : (status.conditions ?? []),
      sent,
      now,
    );
    try {
      node = await patchNodeStatus(writes, name, status, conditions, deadline(stopping ? "deadline" : "stop"));
    } catch (err) {
      if (isNotFound(err)) registered = false;
      throw err;
    }
    sent = conditions;
    statusAt = now.getTime();
    dirty = false;
  };
  const renew = async (): Promise<void> => {
    const owner = { name, uid: node.metadata?.uid ?? "" };
    try {
      lease = await renewLease(writes, owner, settings.leaseDurationSeconds, lease, deadline());
    } catch (err) {
      lease = undefined;
      report("renew the lease", err);
    }
  };
  const tick = async (): Promise<void> => {
    if (!registered) {
      try {
        node = await createOrAdoptNode(writes, body, deadline());
        registered = true;
        dirty = true;
        lease = undefined;
      } catch (err) {
        report("register the node again", err);
        return;
      }
    }
    await renew();
    if (!dirty && Date.now() - statusAt < settings.statusReportMs) return;
    await writeStatus().catch((err: unknown) => report("write the node status", err));
  };

  await writeStatus();
  await renew();

  // One write at a time: ticks and setStatus take turns.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(step: () => Promise<T>): Promise<T> => {
    const run = queue.then(step);
    queue = run.catch(() => undefined);
    return run;
  };
  const stop = async (): Promise<void> => {
    await queue;
    if (!settings.notReadyOnStop || !registered) return;
    await writeStatus(true).catch((err: unknown) => report("mark the node not ready", err));
  };
  const stopped = runTicker(settings.leaseRenewMs, () => serial(tick), signal)
    .catch((err: unknown) => report("heartbeat", err))
    .then(stop);

  return {
    get node() {
      return node;
    },
    setStatus: (next) =>
      serial(async () => {
        signal.throwIfAborted();
        if (status !== undefined && sameOnWire(status, next)) return false;
        status = next;
        dirty = true;
        await writeStatus();
        return true;
      }),
    stopped,
  };
}
