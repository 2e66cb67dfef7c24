import { describe, expect, it } from "vitest";
import { isLoopback, schemeFor, splitHostPort } from "./scheme.js";

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
