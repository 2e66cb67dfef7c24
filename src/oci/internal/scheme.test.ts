import type * as NodeNet from "node:net";
import { describe, expect, it, vi } from "vitest";
import { isLoopback, schemeFor, splitHostPort } from "./scheme.js";

/** Hosts `isIPv6` was asked about: its pattern costs a process milliseconds on first use. */
const asked = vi.hoisted((): string[] => []);
vi.mock("node:net", async (importOriginal) => {
  const net = await importOriginal<typeof NodeNet>();
  return { ...net, isIPv6: (host: string) => (asked.push(host), net.isIPv6(host)) };
});

describe("schemeFor", () => {
  it.each([
    ["127.0.0.1:5000", [], "http"],
    ["127.8.9.10", [], "http"],
    ["localhost:5000", [], "http"],
    ["localhost", [], "http"],
    ["[::1]:5000", [], "http"],
    ["10.0.0.5:5000", [], "https"],
    ["192.168.1.10", [], "https"],
    ["ghcr.io", [], "https"],
    ["registry.lan:5000", ["registry.lan"], "http"],
    ["registry.lan:5000", ["registry.lan:5000"], "http"],
    ["registry.lan:5001", ["registry.lan:5000"], "https"],
    ["0177.0.0.1", [], "https"],
  ])("%s with insecure %j -> %s", (registry, insecure, expected) => expect(schemeFor(registry, insecure)).toBe(expected));
});

describe("isLoopback and splitHostPort", () => {
  it.each([
    ["[::1]:5000", { host: "::1", port: "5000" }, true],
    ["::1", { host: "::1", port: "" }, true],
    ["a.localhost:80", { host: "a.localhost", port: "80" }, true],
    ["ghcr.io:443", { host: "ghcr.io", port: "443" }, false],
  ])("%s", (registry, parts, loopback) => {
    expect(splitHostPort(registry)).toEqual(parts);
    expect(isLoopback(registry)).toBe(loopback);
  });
});

describe("isLoopback asks Node's IPv6 pattern about IPv6 literals only", () => {
  it.each([
    ["127.0.0.1:5000", true, []],
    ["registry.example:5000", false, []],
    ["10.0.0.5", false, []],
    ["[::1]:5000", true, ["::1"]],
    ["[fe80::1]:5000", false, ["fe80::1"]],
  ])("%s", (registry, loopback, hosts) => {
    asked.length = 0;
    expect(isLoopback(registry)).toBe(loopback);
    expect(asked).toEqual(hosts);
  });
});
