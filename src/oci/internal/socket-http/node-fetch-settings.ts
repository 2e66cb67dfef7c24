/**
 * Where undici keeps the process-wide dispatcher `setGlobalDispatcher` sets: one slot per major
 * version of its dispatcher API (`.1` up to undici 7; undici 8 fills `.2` and a wrapper in `.1`),
 * shared by every copy of undici in the process, Node's own included.
 */
const DISPATCHER_SLOTS = [Symbol.for("undici.globalDispatcher.1"), Symbol.for("undici.globalDispatcher.2")] as const;
/** The classes of the dispatcher undici installs when none is set: an `Agent` without options (wrapped for the older slot). */
const DEFAULT_CLASSES: readonly unknown[] = ["Agent", "Dispatcher1Wrapper"];
const ENV_PROXY_FLAG = "--use-env-proxy";

/** Node's own dispatchers as last seen (a slot `undefined` while Node's undici is not loaded); `null` when they were someone else's. */
let firstSeen: readonly unknown[] | null | undefined;

function dispatchers(): unknown[] {
  return DISPATCHER_SLOTS.map((slot): unknown => Reflect.get(globalThis, slot));
}

/**
 * Whether `value` is a class exported by a CommonJS module in the process (undici from
 * `node_modules`); Node's own undici is built in, so its `Agent` is in no module cache.
 */
function loadedFromAModule(value: unknown): boolean {
  const cache = process.getBuiltinModule("node:module").createRequire(import.meta.url).cache;
  return Object.values(cache).some((module) => module?.exports === value);
}

/** Whether `d` is a dispatcher as undici installs one when none is set, by Node's own undici. */
function nodeDefault(d: unknown): boolean {
  const ctor = (d as { constructor?: { name?: unknown } }).constructor;
  return DEFAULT_CLASSES.includes(ctor?.name) && !loadedFromAModule(ctor);
}

/** Whether Node is told to take its proxy from `HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY`. */
function envProxy(): boolean {
  return (
    process.env["NODE_USE_ENV_PROXY"] === "1" ||
    process.execArgv.includes(ENV_PROXY_FLAG) ||
    (process.env["NODE_OPTIONS"] ?? "").includes(ENV_PROXY_FLAG)
  );
}

/**
 * Reports whether the process has told Node's `fetch` how to connect: a proxy from the environment
 * (`NODE_USE_ENV_PROXY=1`, `--use-env-proxy`), or a global dispatcher of its own (undici's
 * `setGlobalDispatcher`).
 *
 * Node's undici installs its default `Agent` when it loads (on the first `fetch`, `Response` or
 * `Headers`), which may come after the first call: this never loads it (the socket client would then
 * pay its whole bundle for nothing). So the first call takes the dispatchers it finds for Node's own
 * when each slot is empty or holds an `Agent` of Node's built-in undici (code gets its own from undici
 * in `node_modules`), and for the user's otherwise: a `ProxyAgent`, an `EnvHttpProxyAgent`, a composed
 * or custom dispatcher, any dispatcher from undici in `node_modules`. A slot empty then and filled
 * later by Node's own `Agent` is Node's still; any other dispatcher set after that first call is the user's.
 */
export function nodeFetchConfigured(): boolean {
  if (envProxy()) return true;
  if (firstSeen === undefined) {
    const seen = dispatchers();
    firstSeen = seen.every((d) => d === undefined || nodeDefault(d)) ? seen : null;
  }
  const first = firstSeen;
  if (first === null) return true;
  const now = dispatchers();
  if (now.every((d, i) => d === first[i])) return false;
  if (now.every((d, i) => d === first[i] || (first[i] === undefined && nodeDefault(d)))) {
    firstSeen = now;
    return false;
  }
  return true;
}
