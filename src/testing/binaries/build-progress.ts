/** Receives one progress line; {@link ensureControlPlaneBinaries} writes them to stderr by default. */
export type ProgressLog = (line: string) => void;

/** Summarises a `go` command's `-v` output while it runs; see {@link trackGoProgress}. */
export interface GoProgress {
  /** Feeds one stderr line of the go command. */
  line(text: string): void;
  /** Stops the timer and logs the final count and time. */
  done(): void;
}

/**
 * Summarises `go build -v` / `go mod` output into one progress line every `intervalMs`.
 *
 * Go prints a package path per compiled package and `go: downloading <module>` per download;
 * the summary counts both and names the latest, with the elapsed time.
 */
export function trackGoProgress(label: string, log: ProgressLog, intervalMs = 15_000): GoProgress {
  const started = Date.now();
  let packages = 0;
  let downloads = 0;
  let last = "";
  let reported = -1;
  const report = (final: boolean): void => {
    if (!final && packages + downloads === reported) return;
    reported = packages + downloads;
    const counts = [`${packages} packages`, ...(downloads > 0 ? [`${downloads} modules downloaded`] : [])].join(", ");
    const tail = final ? "done" : `latest ${last}`;
    log(`${label}: ${counts}, ${formatElapsed(Date.now() - started)} elapsed, ${tail}`);
  };
  const timer = setInterval(() => report(false), intervalMs);
  timer.unref();
  return {
    line(text) {
      const download = /^go: downloading (\S+)/.exec(text);
      if (download?.[1] !== undefined) {
        downloads++;
        last = download[1];
      } else if (/^[\w.-]+(\/[\w.~+-]+)*$/.test(text.trim())) {
        packages++;
        last = text.trim();
      }
    },
    done() {
      clearInterval(timer);
      report(true);
    },
  };
}

/** Formats a duration as `1m05s` or `12.3s`. */
export function formatElapsed(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
}
