import { read } from "node:fs";

/**
 * Reads `want` bytes at `position` of the open file `fd` into the start of `out` (fewer when the
 * file ends first), through `fs.read`'s callback: one promise and one closure per call, however
 * many reads it takes. `FileHandle.read` makes several times the objects per call (its promise
 * machinery, an error wrapper, the handle's reference counting); read per piece of a push, that
 * garbage grew V8's young generation (`BENCHMARKS.md`, "Snapshot internals").
 */
export function readFully(fd: number, out: Uint8Array, want: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let at = 0;
    const done = (err: NodeJS.ErrnoException | null, n: number): void => {
      if (err) reject(err);
      else if (n === 0 || (at += n) >= want) resolve(at);
      else read(fd, out, at, want - at, position + at, done);
    };
    if (want <= 0) resolve(0);
    else read(fd, out, 0, want, position, done);
  });
}
