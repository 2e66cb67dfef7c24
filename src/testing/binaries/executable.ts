import { access, constants } from "node:fs/promises";

/** Reports whether `path` is a file this process may execute. @internal */
export async function isExecutable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}
