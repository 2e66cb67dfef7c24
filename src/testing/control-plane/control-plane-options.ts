import type { ControlPlaneBinaries } from "../binaries/binaries.js";
import type { ProgressLog } from "../binaries/command.js";
import type { AuditEvent, AuditEventsOptions } from "./audit-log.js";
import type { ControlPlaneClient } from "./connection.js";

/** Options of {@link startControlPlane}. */
export interface StartControlPlaneOptions {
  /**
   * Binaries to run; default {@link ensureControlPlaneBinaries} (which may build them). With `scheduler`,
   * a missing `kubeScheduler` comes from {@link ensureSchedulerBinary}, of kube-apiserver's release.
   */
  binaries?: Pick<ControlPlaneBinaries, "etcd" | "kubeApiserver"> & {
    kubeScheduler?: string | undefined;
    kubeControllerManager?: string | undefined;
  };
  /**
   * Also run kube-scheduler, so pods without `spec.nodeName` are placed as in a real cluster (register
   * nodes with {@link registerNode}); default `false`: such pods stay Pending.
   */
  scheduler?: boolean;
  /**
   * Keep kube-apiserver's audit log: every request at level `Metadata` (user, verb, resource, the
   * authorizer's decision and the response code; no bodies), read with {@link ControlPlane.auditEvents};
   * default `false`.
   */
  auditLog?: boolean;
  /**
   * Also run kube-controller-manager of the same release, with the node lifecycle controller and the
   * garbage collector only: a node's `node.kubernetes.io/not-ready` taint is then lifted and set by
   * the real controller from its Ready condition and Lease (keep nodes with `keepNode` in `./k8s`),
   * and a deleted node's Lease is collected. A missing `kubeControllerManager` comes from
   * {@link ensureControllerManagerBinary}. Default `false`: nothing watches nodes.
   */
  controllerManager?: boolean;
  /** Install the CocoonSet and CocoonHibernation CRDs and wait until Established; default `true`. */
  installCRDs?: boolean;
  /** Flags appended to kube-apiserver's (later flags win). */
  extraApiServerFlags?: readonly string[];
  /** Flags appended to etcd's. */
  extraEtcdFlags?: readonly string[];
  /** Flags appended to kube-scheduler's (with `scheduler`). */
  extraSchedulerFlags?: readonly string[];
  /**
   * Flags appended to kube-controller-manager's (with `controllerManager`), e.g. a short
   * `--node-monitor-period=1s` and `--node-monitor-grace-period=8s` so a test sees a stopped node tainted in seconds.
   */
  extraControllerManagerFlags?: readonly string[];
  /** Deadline for `/readyz` (and CRDs, and the scheduler's `/readyz`), from spawning; default 60 s. */
  startTimeoutMs?: number;
  /** Grace after SIGTERM before SIGKILL, per process, in {@link ControlPlane.stop}; default 10 s. */
  stopTimeoutMs?: number;
  /** Build progress lines (see {@link ensureControlPlaneBinaries}). */
  log?: ProgressLog;
  /** Aborts the start (processes are stopped, files removed). */
  signal?: AbortSignal;
}

/** A running etcd + kube-apiserver pair, with kube-scheduler and kube-controller-manager when asked; see {@link startControlPlane}. */
export interface ControlPlane extends ControlPlaneClient {
  /** Milliseconds from spawning the processes to ready (API answering, CRDs established). */
  readonly startupMs: number;
  /** Process ids, e.g. to check that {@link ControlPlane.stop} left nothing behind. */
  readonly pids: {
    readonly etcd: number;
    readonly kubeApiserver: number;
    readonly kubeScheduler?: number;
    readonly kubeControllerManager?: number;
  };
  /** Temporary folder with data, certificates and credentials; removed by {@link ControlPlane.stop}. */
  readonly dir: string;
  /**
   * The audit events logged so far (start with `auditLog: true`), oldest first, parsed and typed; each
   * request appears once, when it was answered (a watch when it started, too).
   *
   * @throws CocoonError `ERR_AUDIT_LOG` when the plane keeps no audit log, the log is larger than
   * `maxBytes` (default 64 MiB), or a line is not an audit event.
   * @example
   * ```ts
   * await using plane = await startControlPlane({ auditLog: true });
   * const forbidden = (await plane.auditEvents()).filter((e) => e.responseStatus?.code === 403);
   * ```
   */
  auditEvents(options?: AuditEventsOptions): Promise<AuditEvent[]>;
  /** The last `lines` log lines of each process, under a `--- name ---` heading. */
  logTail(lines?: number): string;
  /**
   * Stops kube-apiserver (SIGTERM, SIGKILL after the grace time) and starts it again with the same
   * flags, port and certificates; resolves once it is ready again. etcd keeps running, so every
   * object survives; clients see their connections drop and the server come back at the same address.
   *
   * @example
   * ```ts
   * await plane.restartApiServer();
   * await plane.kubeConfig.makeApiClient(CoreV1Api).listNamespace(); // answered by the new process
   * ```
   */
  restartApiServer(): Promise<void>;
  /**
   * Stops kube-controller-manager and kube-scheduler (if any), kube-apiserver, then etcd (SIGTERM, SIGKILL after the grace time) and removes
   * {@link ControlPlane.dir}; idempotent. kube-apiserver ends open watches itself on SIGTERM
   * (`--shutdown-watch-termination-grace-period=500ms`), so a client's watch does not hold the stop
   * until the grace time (test/integration/controlplane-stop.test.ts: under 2 s).
   */
  stop(): Promise<void>;
  /**
   * {@link ControlPlane.stop}, for `await using`: the control plane stops when the block ends, thrown or not.
   *
   * @example
   * ```ts
   * {
   *   await using plane = await startControlPlane();
   *   await plane.kubeConfig.makeApiClient(CoreV1Api).listNamespace();
   * } // stopped here
   * ```
   */
  [Symbol.asyncDispose](): Promise<void>;
}
