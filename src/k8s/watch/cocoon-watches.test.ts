import { KubeConfig } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { createClients } from "../clients.js";
import { watchCocoonHibernations, watchCocoonPods, watchCocoonSets } from "./cocoon-watches.js";

/** Clients of a server nothing listens on: a request would fail, so none must be sent. */
function nowhere() {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser({ name: "nowhere", server: "https://127.0.0.1:1", skipTLSVerify: true }, { name: "u", token: "t" });
  return createClients(kc);
}

describe("the typed watches", () => {
  it.each([
    [{ namespace: "" }, "watch: namespace is empty (leave it out to watch all namespaces)"],
    [{ pageSize: -1 }, "watch: pageSize -1 is not a whole number of objects (0 or more)"],
    [{ pageSize: 1.5 }, "watch: pageSize 1.5 is not a whole number of objects (0 or more)"],
    [{ timeoutSeconds: 0 }, "watch: timeoutSeconds 0 is not a whole number of seconds (1 or more)"],
    [{ maxEventBytes: 1023 }, "watch: maxEventBytes 1023 is not a whole number of bytes (1024 or more)"],
    [{ maxEventBytes: Infinity }, "watch: maxEventBytes Infinity is not a whole number of bytes (1024 or more)"],
  ])("refuse %j before anything is sent", (options, message) => {
    const clients = nowhere();
    for (const watch of [watchCocoonSets, watchCocoonHibernations, watchCocoonPods]) {
      let err: unknown;
      try {
        watch(clients, options);
      } catch (caught) {
        err = caught;
      }
      expect(isCocoonError(err, "ERR_INVALID_ARGUMENT") && err.message).toBe(message);
    }
  });

  it("end at once, with no event, when the signal has already aborted", async () => {
    const events: unknown[] = [];
    for await (const event of watchCocoonSets(nowhere(), { signal: AbortSignal.abort() })) events.push(event);
    expect(events).toEqual([]);
  });

  it("are iterated once", async () => {
    const watch = watchCocoonPods(nowhere(), { signal: AbortSignal.abort() });
    for await (const _ of watch) break;
    expect(() => watch[Symbol.asyncIterator]()).toThrow("a Pod watch is iterated once: start another watch for another consumer");
    expect([watch.list(), watch.get({ namespace: "a", name: "b" }), watch.resourceVersion]).toEqual([[], undefined, ""]);
  });

  it("announce a failed request as retrying, then stop on break", async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const event of watchCocoonSets(nowhere(), { signal: controller.signal })) {
      seen.push(
        event.type === "retrying"
          ? `retrying in ${event.delayMs >= 800 && event.delayMs < 1_600 ? "800 to 1600" : event.delayMs} ms`
          : event.type,
      );
      break;
    }
    expect(seen).toEqual(["retrying in 800 to 1600 ms"]);
  });
});
