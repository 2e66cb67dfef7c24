import { GROUP, VERSION } from "../../apis/v1/groupversion-info.js";
import { PLURALS, type Target } from "./target.js";

/**
 * The API path of a resolved target (its name and namespace already checked as path segments),
 * as client-node's generated methods build it.
 *
 * @internal
 */
export function objectPath(target: Pick<Target, "kind" | "namespace" | "name">): string {
  const scope = `namespaces/${encodeURIComponent(target.namespace)}`;
  const name = encodeURIComponent(target.name);
  if (target.kind === "Pod") return `/api/v1/${scope}/pods/${name}`;
  return `/apis/${GROUP}/${VERSION}/${scope}/${PLURALS[target.kind]}/${name}`;
}
