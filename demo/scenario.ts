/**
 * The scenario the steps share: names, the clients, and how a lifecycle report is judged.
 *
 * @module
 */
import type { CocoonSet, LifecycleState, LifecycleStatus } from "../src/index.js";
import type { CocoonClients } from "../src/k8s/index.js";
import type { OCIRegistry } from "../src/oci/index.js";
import type { TestRegistry } from "../src/testing/index.js";

/** What every step works on. */
export interface Demo {
  readonly clients: CocoonClients;
  readonly namespace: string;
  /** The operator's client of the snapshot registry (token auth); its token cache is its own. */
  readonly registry: OCIRegistry;
  /** The virtual kubelet's client of the same registry (another process in real life). */
  readonly kubeletRegistry: OCIRegistry;
  /** The real registry behind it, which step 7 stops. */
  readonly server: TestRegistry;
}

/** The CocoonSet's name. */
export const SET = "sandbox";
/** Its main (slot 0) pod. */
export const MAIN = `${SET}-0`;
/** The node the main pod runs on, and wakes on. */
export const NODE = "cocoon-node-1";
/** A larger node that joins the pool while the set sleeps: free and otherwise better, yet the wake prefers {@link NODE}. */
export const BIG_NODE = "cocoon-node-2";

/** The set's `metadata.generation` as text. */
export const generation = (set: CocoonSet): string => String(set.metadata.generation);

/** Reports whether the virtual kubelet reported `state` at the set's current generation. */
export const reportedAt = (status: LifecycleStatus, state: LifecycleState, set: CocoonSet): boolean =>
  status.state === state && String(status.observedGeneration) === generation(set);
