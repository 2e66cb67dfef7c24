import { CocoonError, type CocoonErrorCode } from "../../errors.js";
import type { ProgressLog } from "./build-progress.js";
import { findOnPath } from "./find-on-path.js";

/** A prebuilt download that may fill a cache folder. @internal */
export interface PlannedDownload {
  /** Downloads and checks the binaries into `outDir`; throws why it could not. */
  run(outDir: string): Promise<void>;
  /** The error when the downloaded binaries do not run as the expected version. */
  unusable(): CocoonError;
}

/** How {@link downloadThenBuild} fills one cache folder. @internal */
export interface FillPlan {
  /** The final cache folder, for progress lines. */
  dir: string;
  /** What is filled, for progress lines (`kube-scheduler v1.35.4`). */
  what: string;
  /** The download to try first, or `undefined` when downloads are off or there is none for this platform. */
  download: PlannedDownload | undefined;
  /** A line on what the Go build costs, logged before it starts. */
  buildNote: string;
  /** Builds the binaries into `outDir` with Go. */
  build(outDir: string): Promise<void>;
  /** What the error says when there is neither a download nor a `go`. */
  noWay: NoWayWords;
  /** Reports whether a folder holds binaries that run; a download that does not is discarded. */
  isUsable(dir: string): Promise<boolean>;
  /** Environment of `go` (its `PATH` decides whether there is one). */
  env: NodeJS.ProcessEnv;
  /** Progress lines. */
  log: ProgressLog;
  /** Aborts a download or build. */
  signal?: AbortSignal | undefined;
}

/** The parts of the error when binaries can be neither downloaded nor built. @internal */
export interface NoWayWords {
  /** Its code. */
  code: CocoonErrorCode;
  /** The base URL downloads would come from; `undefined` when they are off. */
  downloadBase: string | undefined;
  /** The variable that sets it (`COCOON_REGISTRY_DOWNLOAD_URL`). */
  variable: string;
  /** Who publishes nothing for this platform (`envtest publishes no archive`). */
  publisher: string;
  /** `it` or `them`, for what is built. */
  pronoun: "it" | "them";
  /** What to do instead, after "Install Go >= 1.25, " (`point ... at a mirror ..., or point ... at ...`). */
  remedy: string;
}

/**
 * The error when `what` can be neither downloaded nor built: downloads are off, nothing is
 * published for this platform, or the download `failure` (kept as `cause`), and no `go`.
 *
 * @internal
 */
export function noWayToGet(what: string, words: NoWayWords, failure?: Error): CocoonError {
  const download =
    failure !== undefined
      ? `the download failed (${failure.message})`
      : words.downloadBase === undefined
        ? `downloads are off (${words.variable}=off)`
        : `${words.publisher} for ${process.platform}/${process.arch}`;
  return new CocoonError(
    words.code,
    `cannot get ${what}: ${download}, and \`go\` is not on PATH to build ${words.pronoun}. Install Go >= 1.25, ${words.remedy}.`,
    failure !== undefined ? { cause: failure } : undefined,
  );
}

/**
 * Plans how to fill a cache folder: the download first, then a Go build.
 *
 * `preflight` fails at once, with {@link noWayToGet}, when there is neither a download nor a `go`
 * on PATH. `fill` tries the download; when it fails it logs why and builds with Go, or, without Go,
 * throws the same error naming the failed download as its cause.
 *
 * @internal
 */
export function downloadThenBuild(plan: FillPlan): {
  preflight(): Promise<void>;
  fill(outDir: string): Promise<"download" | "build">;
} {
  const hasGo = async (): Promise<boolean> => (await findOnPath("go", plan.env)) !== undefined;
  return {
    async preflight() {
      if (plan.download === undefined && !(await hasGo())) throw noWayToGet(plan.what, plan.noWay);
    },
    async fill(outDir) {
      if (plan.download !== undefined) {
        const failure = await tryDownload(plan.download, outDir, plan);
        if (failure === undefined) return "download";
        if (!(await hasGo())) throw noWayToGet(plan.what, plan.noWay, failure);
        plan.log(`${failure.message}; building with go instead`);
      }
      plan.log(`building ${plan.what} into ${plan.dir}`);
      plan.log(plan.buildNote);
      await plan.build(outDir);
      return "build";
    },
  };
}

async function tryDownload(download: PlannedDownload, outDir: string, plan: FillPlan): Promise<Error | undefined> {
  try {
    await download.run(outDir);
  } catch (err) {
    plan.signal?.throwIfAborted();
    return err as Error;
  }
  return (await plan.isUsable(outDir)) ? undefined : download.unusable();
}
