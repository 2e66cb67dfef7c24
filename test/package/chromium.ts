/**
 * A headless Chromium from npm, not from the OS: `@sparticuz/chromium` ships a brotli-compressed
 * chrome-headless-shell with its fonts and the NSS libraries it links. It is unpacked once per
 * version under `${XDG_CACHE_HOME:-~/.cache}/cocoon-common/chromium/<version>` (a temp folder
 * renamed into place, so a half-written unpack is never used) and needs no system package.
 *
 * @module
 */
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { brotliDecompressSync, createBrotliDecompress } from "node:zlib";

/** An unpacked Chromium: the binary and the environment it runs in. */
export interface ChromiumInstall {
  binary: string;
  env: NodeJS.ProcessEnv;
}

const require = createRequire(import.meta.url);

/** The package's `bin` folder and version, as installed in node_modules. */
function packaged(): { bin: string; version: string } {
  // Its exports map hides package.json; the entry is build/index.js, one folder below the package.
  const pkg = join(dirname(require.resolve("@sparticuz/chromium")), "..");
  const { version } = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")) as { version: string };
  return { bin: join(pkg, "bin"), version };
}

/** Writes the regular files and folders of a ustar archive under `dir` (the package's archives hold nothing else). */
export function untar(archive: Buffer, dir: string): void {
  for (let at = 0; at + 512 <= archive.length;) {
    const header = archive.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const field = (from: number, to: number) => header.toString("latin1", from, to).replace(/\0.*$/s, "");
    const name = [field(345, 500), field(0, 100)].filter((p) => p !== "").join("/");
    const size = parseInt(field(124, 136).trim() || "0", 8);
    const type = field(156, 157) || "0";
    const target = join(dir, name);
    if (!target.startsWith(dir + "/") && target !== dir) throw new Error(`tar entry ${name} leaves ${dir}`);
    if (type === "5") mkdirSync(target, { recursive: true });
    else if (type === "0") {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, archive.subarray(at + 512, at + 512 + size), { mode: parseInt(field(100, 108).trim() || "644", 8) & 0o777 });
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
}

/** Unpacks the package into `dir`, to be renamed to `final`: the binary, its NSS libraries (`lib/`) and fonts with a fontconfig of their own. */
async function unpack(bin: string, dir: string, final: string): Promise<void> {
  await pipeline(
    createReadStream(join(bin, "chromium.br")),
    createBrotliDecompress(),
    createWriteStream(join(dir, "chromium"), { mode: 0o755 }),
  );
  untar(brotliDecompressSync(readFileSync(join(bin, "al2023.tar.br"))), dir);
  untar(brotliDecompressSync(readFileSync(join(bin, "fonts.tar.br"))), dir);
  writeFileSync(
    join(dir, "fonts.conf"),
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><dir>${join(final, "fonts")}</dir><cachedir>${join(final, "fonts-cache")}</cachedir></fontconfig>\n`,
  );
}

/** The cached Chromium, unpacked first when this version is not there yet. */
export async function installChromium(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumInstall> {
  const { bin, version } = packaged();
  const root = join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache"), "cocoon-common", "chromium");
  const dir = join(root, version);
  if (!existsSync(join(dir, "chromium"))) {
    mkdirSync(root, { recursive: true });
    const temp = mkdtempSync(join(root, `.${version}-`));
    try {
      await unpack(bin, temp, dir);
      if (!existsSync(dir)) renameSync(temp, dir); // a parallel unpack may have won: keep its folder
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  }
  return {
    binary: join(dir, "chromium"),
    env: {
      ...env,
      FONTCONFIG_FILE: join(dir, "fonts.conf"),
      LD_LIBRARY_PATH: [join(dir, "lib"), env.LD_LIBRARY_PATH].filter(Boolean).join(":"),
    },
  };
}
