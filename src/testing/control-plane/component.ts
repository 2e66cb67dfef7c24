import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { freePort } from "../process/free-port.js";
import { startProcess, type ManagedProcess } from "../process/managed-process.js";
import type { ControlPlaneClient } from "./connection.js";
import { waitReady } from "./readiness.js";

/** What starting kube-scheduler or kube-controller-manager needs. @internal */
export interface StartComponentOptions {
  /** Path of the binary, of the API server's release. */
  binary: string;
  /** The control plane's folder; the component's files go to a folder of it. */
  dir: string;
  /** The running API server. */
  client: ControlPlaneClient;
  /** Flags appended to the component's. */
  extraFlags?: readonly string[] | undefined;
  /** Called with the process as soon as it is spawned, so the caller can stop it whatever happens next. */
  spawned(proc: ManagedProcess): void;
  /** The processes to watch while waiting (a dead one fails the start). */
  processes: readonly ManagedProcess[];
  /** Deadline of the readiness probe. */
  deadline: number;
  /** Aborts the wait. */
  signal?: AbortSignal | undefined;
}

/** Where one component keeps its files, and its port. @internal */
export interface ComponentFiles {
  /** Its folder, under the control plane's. */
  home: string;
  /** Kubeconfig of its user (a fresh client certificate). */
  kubeconfig: string;
  /** Folder where it writes its self-signed serving certificate (`<name>.crt`). */
  certDir: string;
  /** Loopback secure port of its `/healthz` (and `/readyz` where it has one). */
  port: number;
}

/** How one component is run. @internal */
export interface ComponentSpec {
  /** The process name, also the file name of its serving certificate. */
  name: "kube-scheduler" | "kube-controller-manager";
  /** Its folder under the control plane's. */
  folder: string;
  /** The user it authenticates as. */
  user: string;
  /** The probe that says it is ready. */
  readyPath: string;
  /** Its arguments, before the extra flags; may write more files into `files.home` first. */
  args(files: ComponentFiles): Promise<string[]>;
}

/**
 * Starts a control-plane component against the API server as `spec.user`, with a fresh client
 * certificate in a kubeconfig file, on a free loopback port, and waits until `spec.readyPath` answers ok.
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` with its log tail when it exits or is not ready by the deadline.
 * @internal
 */
export async function startComponent(spec: ComponentSpec, options: StartComponentOptions): Promise<ManagedProcess> {
  const home = join(options.dir, spec.folder);
  await mkdir(home, { recursive: true });
  const files: ComponentFiles = { home, kubeconfig: join(home, "kubeconfig"), certDir: join(home, "certs"), port: await freePort() };
  await writeFile(files.kubeconfig, options.client.kubeconfigYaml(spec.user), { mode: 0o600 });
  const args = [...(await spec.args(files)), ...(options.extraFlags ?? [])];
  const proc = startProcess(spec.name, options.binary, args, home);
  options.spawned(proc);
  const probe = {
    name: spec.name,
    server: `https://127.0.0.1:${files.port}`,
    certFile: join(files.certDir, `${spec.name}.crt`),
    paths: [spec.readyPath],
  };
  await waitReady(probe, options.processes, options.deadline, options.signal);
  return proc;
}
