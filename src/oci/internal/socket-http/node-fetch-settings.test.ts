import type * as Undici from "undici";
import { afterEach, describe, expect, it, vi } from "vitest";

// Each test looks at the dispatchers first with a fresh copy of the module, as a process does once.
const SLOTS = [Symbol.for("undici.globalDispatcher.1"), Symbol.for("undici.globalDispatcher.2")];
const saved = SLOTS.map((slot): unknown => Reflect.get(globalThis, slot));
const firstLook = async (): Promise<() => boolean> => {
  vi.resetModules();
  return (await import("./node-fetch-settings.js")).nodeFetchConfigured;
};

afterEach(() => {
  SLOTS.forEach((slot, i) => Reflect.set(globalThis, slot, saved[i]));
  delete process.env["NODE_USE_ENV_PROXY"];
});

describe("nodeFetchConfigured", () => {
  it("is false while the global dispatcher is the Agent Node's own undici installed", async () => {
    const configured = await firstLook();
    expect([configured(), configured()]).toEqual([false, false]);
  });

  it("is true from the moment another dispatcher is set, and false again once Node's is back", async () => {
    const configured = await firstLook();
    expect(configured()).toBe(false);
    const node = SLOTS.map((slot): unknown => Reflect.get(globalThis, slot));
    const { Agent, setGlobalDispatcher } = await import("undici");
    const agent = new Agent();
    setGlobalDispatcher(agent);
    expect(configured()).toBe(true);
    SLOTS.forEach((slot, i) => Reflect.set(globalThis, slot, node[i]));
    expect(configured()).toBe(false);
    await agent.close();
  });

  it("is false when Node's undici loads after the first look, and true once another dispatcher is set", async () => {
    const node = SLOTS.map((slot): unknown => Reflect.get(globalThis, slot));
    SLOTS.forEach((slot) => Reflect.deleteProperty(globalThis, slot));
    const configured = await firstLook();
    expect(configured()).toBe(false);
    SLOTS.forEach((slot, i) => Reflect.set(globalThis, slot, node[i]));
    expect([configured(), configured()]).toEqual([false, false]);
    const { Agent, setGlobalDispatcher } = await import("undici");
    const agent = new Agent();
    setGlobalDispatcher(agent);
    expect(configured()).toBe(true);
    await agent.close();
  });

  it.each([
    ["an Agent from undici in node_modules", (u: typeof Undici) => new u.Agent()],
    ["a ProxyAgent", (u: typeof Undici) => new u.ProxyAgent("http://127.0.0.1:9")],
    ["an EnvHttpProxyAgent", (u: typeof Undici) => new u.EnvHttpProxyAgent()],
  ])("is true when %s was set before the first look", async (_name, make) => {
    const undici = await import("undici");
    const dispatcher = make(undici);
    undici.setGlobalDispatcher(dispatcher);
    const configured = await firstLook();
    expect(configured()).toBe(true);
    await dispatcher.close();
  });

  it("is true with NODE_USE_ENV_PROXY=1, whatever the dispatcher", async () => {
    const configured = await firstLook();
    process.env["NODE_USE_ENV_PROXY"] = "1";
    expect(configured()).toBe(true);
  });
});
