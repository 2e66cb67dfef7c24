import { readFile } from "node:fs/promises";
import { CocoonError } from "../../errors.js";

/** How long a token read from a file is used before the file is read again: client-go's `NewCachedFileTokenSource`. */
const TOKEN_REREAD_MS = 60_000;

/**
 * A bearer token kept in a file (a projected service account token, a kubeconfig's `tokenFile`),
 * read again once a minute as client-go does, so a rotated token takes effect without a restart.
 *
 * @internal
 */
export function tokenFile(path: string): () => Promise<string> {
  let cached: { token: string; at: number } | undefined;
  return async () => {
    if (cached !== undefined && Date.now() - cached.at < TOKEN_REREAD_MS) return cached.token;
    let token: string;
    try {
      token = (await readFile(path, "utf8")).trim();
    } catch (err) {
      if (cached !== undefined) return cached.token; // client-go keeps the last token when a re-read fails
      throw new CocoonError("ERR_KUBECONFIG", `the token file ${path} cannot be read`, { cause: err });
    }
    if (token === "") throw new CocoonError("ERR_KUBECONFIG", `the token file ${path} is empty`);
    cached = { token, at: Date.now() };
    return token;
  };
}
