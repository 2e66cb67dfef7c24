import { chmod, mkdir, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { BinaryDownloadError, DownloadFailure } from "./download-error.js";
import { runCommand } from "./run-command.js";

/** A downloaded, verified `.tar.gz` and the binaries to take from it. @internal */
export interface VerifiedArchive {
  /** File name of the archive, for messages. */
  name: string;
  /** URL it came from, for messages. */
  url: string;
  /** Path of the downloaded archive; removed by {@link unpackBinaries}. */
  file: string;
  /** Names of the regular files to take, wherever they sit in the archive. */
  binaries: readonly string[];
}

/**
 * Unpacks `archive.binaries` into `outDir` as executables, leaving nothing else there.
 *
 * The archive is unpacked into `outDir/unpacked`, each binary is the regular file of that name
 * anywhere in it, and both the tree and the archive file are removed whether or not this succeeds.
 *
 * @throws BinaryDownloadError `archive` when `tar` fails or a binary is missing.
 * @internal
 */
export async function unpackBinaries(archive: VerifiedArchive, outDir: string): Promise<void> {
  const tree = join(outDir, "unpacked");
  try {
    await mkdir(tree);
    await runCommand("tar", ["-xzf", archive.file, "-C", tree]).catch((err: unknown) => {
      throw new BinaryDownloadError(DownloadFailure.Archive, archive.url, `cannot unpack ${archive.name}: ${(err as Error).message}`, {
        cause: err,
      });
    });
    const entries = await readdir(tree, { recursive: true, withFileTypes: true });
    const found = archive.binaries.map((binary) => {
      const entry = entries.find((e) => e.isFile() && e.name === binary);
      if (!entry)
        throw new BinaryDownloadError(DownloadFailure.Archive, archive.url, `${archive.name} from ${archive.url} holds no ${binary}`);
      return { from: join(entry.parentPath, entry.name), to: join(outDir, binary) };
    });
    for (const { from, to } of found) {
      await rename(from, to);
      await chmod(to, 0o755);
    }
  } finally {
    await rm(tree, { recursive: true, force: true });
    await rm(archive.file, { force: true });
  }
}
