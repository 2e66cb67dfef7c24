import { HttpMethod, KubeConfig, RequestContext, type Cluster, type User } from "@kubernetes/client-node";
import { describe, expect, it, vi } from "vitest";
import { clientNodeMajor } from "./client-node-line.js";
import { keepAliveAuthentication } from "./keep-alive-authentication.js";
import { buildsDispatchers } from "./shared-dispatchers.js";

const PEM_A = Buffer.from("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n").toString("base64");
const PEM_B = Buffer.from("-----BEGIN CERTIFICATE-----\nBBBB\n-----END CERTIFICATE-----\n").toString("base64");

/** What the tests read of an undici dispatcher. */
interface Dispatcher {
  destroy(): Promise<void>;
  readonly destroyed: boolean;
}

/** client-node 2's RequestContext, which client-node 1's types do not describe. */
interface DispatcherContext {
  getDispatcher(): Dispatcher | undefined;
  setDispatcher(dispatcher: Dispatcher): void;
}

function kubeConfig(cluster: Partial<Cluster> = {}, user: Partial<User> = { token: "t0" }, withCa = true): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser(
    { name: "c", server: "https://127.0.0.1:6443", ...(withCa ? { caData: PEM_A } : {}), skipTLSVerify: false, ...cluster },
    { name: "u", ...user },
  );
  return kc;
}

/** Authenticates one request; `set` lists every dispatcher put on its context, in order. */
async function authenticate(auth: { applySecurityAuthentication(ctx: RequestContext): void | Promise<void> }) {
  const context = new RequestContext("https://127.0.0.1:6443/api", HttpMethod.GET);
  const pinned = context as unknown as DispatcherContext;
  const set: Dispatcher[] = [];
  const setDispatcher = pinned.setDispatcher.bind(pinned);
  pinned.setDispatcher = (dispatcher) => {
    set.push(dispatcher);
    setDispatcher(dispatcher);
  };
  await auth.applySecurityAuthentication(context);
  return { dispatcher: pinned.getDispatcher(), headers: context.getHeaders(), set };
}

describe("buildsDispatchers", () => {
  it(`is ${String(clientNodeMajor >= 2)} on the installed client-node ${String(clientNodeMajor)}`, () => {
    expect(buildsDispatchers(kubeConfig())).toBe(clientNodeMajor >= 2);
  });
});

describe.runIf(clientNodeMajor >= 2)(
  "keepAliveAuthentication on client-node 2's dispatchers (not run on client-node 1, which has none)",
  () => {
    it("gives every request the dispatcher client-node built for the first, destroying the ones it built since", async () => {
      const auth = keepAliveAuthentication(kubeConfig());
      const first = await authenticate(auth);
      const second = await authenticate(auth);
      const third = await authenticate(auth);
      expect(first.dispatcher?.constructor.name).toBe("Agent");
      expect(second.dispatcher).toBe(first.dispatcher);
      expect(third.dispatcher).toBe(first.dispatcher);
      // Each request: client-node's fresh dispatcher, then the shared one, pinned to the origin.
      expect([first.set.length, second.set.length, third.set.length]).toEqual([2, 2, 2]);
      const [kept, built2, built3] = [first.set[0], second.set[0], third.set[0]];
      expect(new Set([kept, built2, built3]).size).toBe(3);
      await vi.waitFor(() => expect([kept?.destroyed, built2?.destroyed, built3?.destroyed]).toEqual([false, true, true]));
      expect(first.headers["Authorization"]).toBe("Bearer t0");
      auth.close();
    });

    it("authenticates every request anew, so a changed token applies at once", async () => {
      const kc = kubeConfig();
      const auth = keepAliveAuthentication(kc);
      const before = await authenticate(auth);
      kc.users[0] = { ...kc.users[0]!, token: "t1" };
      const after = await authenticate(auth);
      expect(before.headers["Authorization"]).toBe("Bearer t0");
      expect(after.headers["Authorization"]).toBe("Bearer t1");
      expect(after.dispatcher).toBe(before.dispatcher);
      auth.close();
    });

    it("keeps one dispatcher per TLS setting, so a rotated CA takes effect on the next request", async () => {
      const kc = kubeConfig();
      const auth = keepAliveAuthentication(kc);
      const a = await authenticate(auth);
      kc.clusters[0] = { ...kc.clusters[0]!, caData: PEM_B };
      const b = await authenticate(auth);
      kc.clusters[0] = { ...kc.clusters[0], caData: PEM_A };
      const again = await authenticate(auth);
      expect(b.dispatcher).not.toBe(a.dispatcher);
      expect(again.dispatcher).toBe(a.dispatcher);
      auth.close();
    });

    it.each([
      ["an http proxy-url", "http://proxy.example:3128", "ProxyAgent"],
      ["a SOCKS proxy-url", "socks5://proxy.example:1080", "Agent"],
    ])("shares the dispatcher of %s", async (_name, proxyUrl, className) => {
      const auth = keepAliveAuthentication(kubeConfig({ proxyUrl }));
      const first = await authenticate(auth);
      expect(first.dispatcher?.constructor.name).toBe(className);
      expect((await authenticate(auth)).dispatcher).toBe(first.dispatcher);
      auth.close();
    });

    it("sets no dispatcher where client-node sets none (no TLS setting: fetch's global dispatcher)", async () => {
      const auth = keepAliveAuthentication(kubeConfig({}, { token: "t0" }, false));
      expect((await authenticate(auth)).dispatcher).toBeUndefined();
      expect((await authenticate(auth)).dispatcher).toBeUndefined();
    });

    it("keeps 16 settings: past them the oldest is dropped, not destroyed, and one built on return is destroyed by close()", async () => {
      const kc = kubeConfig();
      const auth = keepAliveAuthentication(kc);
      const withCa = async (i: number) => {
        kc.clusters[0] = {
          ...kc.clusters[0]!,
          caData: Buffer.from(`-----BEGIN CERTIFICATE-----\nCA${String(i)}\n-----END CERTIFICATE-----\n`).toString("base64"),
        };
        return (await authenticate(auth)).dispatcher!;
      };
      const first = await withCa(0);
      for (let i = 1; i < 16; i++) await withCa(i);
      expect(await withCa(0)).toBe(first); // 16 settings: all still shared
      await withCa(16); // the 17th drops the oldest entry
      const back = await withCa(0);
      expect(back).not.toBe(first);
      auth.close();
      await vi.waitFor(() => expect(back.destroyed).toBe(true));
      expect(first.destroyed).toBe(false);
      await first.destroy();
    });

    it("closes its dispatchers; the next request gets a new one", async () => {
      const auth = keepAliveAuthentication(kubeConfig());
      const first = await authenticate(auth);
      auth.close();
      await vi.waitFor(() => expect(first.dispatcher?.destroyed).toBe(true));
      const next = await authenticate(auth);
      expect(next.dispatcher).not.toBe(first.dispatcher);
      expect(next.dispatcher?.destroyed).toBe(false);
      auth.close();
    });
  },
);
