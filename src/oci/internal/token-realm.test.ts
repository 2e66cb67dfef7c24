import { describe, expect, it } from "vitest";
import { RegistryError } from "../errors.js";
import { tokenRealm } from "./token-realm.js";

const WHAT = "get token for repository:vm:pull";
const PRIVATE = "a loopback, private or link-local address that is not the registry";

/** What {@link tokenRealm} answers: the realm it accepted, or the message it refused with. */
function verdict(realm: string, registry: string, insecure: readonly string[] = []): string {
  try {
    return `ok ${tokenRealm(realm, registry, insecure, WHAT).href}`;
  } catch (err) {
    if (!(err instanceof RegistryError) || err.code !== "ERR_REGISTRY_UNAUTHORIZED") throw err;
    return err.message.slice(`${WHAT}: `.length);
  }
}

describe("tokenRealm", () => {
  // go-containerregistry v0.22.1 pkg/v1/remote/transport/bearer_test.go, TestValidateRealmURLSameHost.
  it.each([
    ["same loopback host:port allowed", "http://127.0.0.1:5000/auth", "127.0.0.1:5000", "ok http://127.0.0.1:5000/auth"],
    [
      "same loopback host but different port still blocked",
      "http://127.0.0.1:8080/auth",
      "127.0.0.1:5000",
      `refusing the token realm host 127.0.0.1:8080: ${PRIVATE} 127.0.0.1:5000`,
    ],
    ["same private host (no port) allowed", "https://10.0.0.1/auth", "10.0.0.1", "ok https://10.0.0.1/auth"],
    ["same IPv6 loopback host:port allowed", "http://[::1]:5000/auth", "[::1]:5000", "ok http://[::1]:5000/auth"],
    [
      "cross-host loopback redirect still blocked",
      "http://127.0.0.1:5000/auth",
      "registry.example.com",
      `refusing the token realm host 127.0.0.1:5000: ${PRIVATE} registry.example.com`,
    ],
    [
      "cross-host metadata redirect still blocked",
      "https://169.254.169.254/auth",
      "registry.example.com",
      `refusing the token realm host 169.254.169.254: ${PRIVATE} registry.example.com`,
    ],
    // Go's "scheme check still applies on same host" pings 127.0.0.1 over HTTPS; we always speak
    // plain HTTP to loopback, so the same check shows on a private registry we reach over HTTPS.
    [
      "scheme check still applies on same host",
      "http://10.0.0.1:5000/auth",
      "10.0.0.1:5000",
      "refusing the token realm host 10.0.0.1:5000: plain HTTP to a host that is neither loopback nor listed as insecure",
    ],
  ])("Go: %s", (_name, realm, registry, expected) => expect(verdict(realm, registry)).toBe(expected));

  // TestValidateRealmURLUnspecified (Go passes no registry host; the registry here is elsewhere).
  it.each([
    ["https://0.0.0.0/token", "0.0.0.0"],
    ["https://0.0.0.0:8443/token", "0.0.0.0:8443"],
    ["https://[::]/token", "[::]"],
    ["https://[::]:8443/token", "[::]:8443"],
    ["https://127.0.0.1/token", "127.0.0.1"],
    ["https://[::1]/token", "[::1]"],
    ["https://10.0.0.1/token", "10.0.0.1"],
    ["https://192.168.1.1/token", "192.168.1.1"],
    ["https://169.254.169.254/token", "169.254.169.254"],
  ])("Go: refuses %s from another registry", (realm, host) => {
    expect(verdict(realm, "registry.example.com")).toBe(`refusing the token realm host ${host}: ${PRIVATE} registry.example.com`);
  });

  it.each(["https://8.8.8.8/token", "https://registry.example.com/token", "https://auth.example.com:8443/token"])(
    "Go: accepts the public realm %s",
    (realm) => expect(verdict(realm, "registry.example.com")).toBe(`ok ${realm}`),
  );

  // internal/ipaddr TestIsPrivateOrLinkLocal: every spelling the dialer accepts is the address it dials.
  it.each([
    ["2130706433", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["127.000.000.001", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["2852039166", "169.254.169.254"],
    ["[::ffff:127.0.0.1]", "[::ffff:7f00:1]"],
    ["[::ffff:169.254.169.254]", "[::ffff:a9fe:a9fe]"],
    ["[fe80::1]", "[fe80::1]"],
    ["[fd00:ec2::254]", "[fd00:ec2::254]"],
    ["172.16.0.1", "172.16.0.1"],
    ["172.31.255.255", "172.31.255.255"],
    ["224.0.0.251", "224.0.0.251"],
    ["[ff02::1]", "[ff02::1]"],
    ["[ff12::1]", "[ff12::1]"],
  ])("Go: refuses %s, the private address %s", (spelled, host) => {
    expect(verdict(`https://${spelled}/token`, "registry.example.com")).toBe(
      `refusing the token realm host ${host}: ${PRIVATE} registry.example.com`,
    );
  });

  it.each([
    ["3132109884", "https://186.176.52.60/token"],
    ["172.32.0.1", "https://172.32.0.1/token"],
    ["224.0.1.1", "https://224.0.1.1/token"],
    ["[ff05::1]", "https://[ff05::1]/token"],
  ])("Go: accepts %s, a public or not link-local address", (spelled, href) => {
    expect(verdict(`https://${spelled}/token`, "registry.example.com")).toBe(`ok ${href}`);
  });

  it.each([
    ["registry 10.0.0.1:443, realm on its default port", "https://10.0.0.1/token", "10.0.0.1:443", "ok https://10.0.0.1/token"],
    ["registry 127.0.0.1:80, realm on its default port", "http://127.0.0.1/token", "127.0.0.1:80", "ok http://127.0.0.1/token"],
    ["registry spelled another way", "http://127.0.0.1:5000/token", "127.000.000.001:5000", "ok http://127.0.0.1:5000/token"],
    [
      "same host, realm on 443, registry on 5000",
      "https://10.0.0.1/token",
      "10.0.0.1:5000",
      `refusing the token realm host 10.0.0.1: ${PRIVATE} 10.0.0.1:5000`,
    ],
    ["localhost on the registry's port", "http://localhost:5000/token", "localhost:5000", "ok http://localhost:5000/token"],
    [
      "localhost on another port",
      "http://localhost:5001/token",
      "localhost:5000",
      `refusing the token realm host localhost:5001: ${PRIVATE} localhost:5000`,
    ],
    [
      "localhost for a loopback IP registry",
      "http://localhost:5000/token",
      "127.0.0.1:5000",
      `refusing the token realm host localhost:5000: ${PRIVATE} 127.0.0.1:5000`,
    ],
    ["a *.localhost name", "https://auth.localhost/token", "ghcr.io", `refusing the token realm host auth.localhost: ${PRIVATE} ghcr.io`],
    [
      "LOCALHOST. spelled loudly",
      "https://LOCALHOST.:5001/token",
      "localhost:5000",
      `refusing the token realm host localhost.:5001: ${PRIVATE} localhost:5000`,
    ],
    ["a realm that is no URL", "/token", "127.0.0.1:5000", "the token realm is not a URL"],
    ["an empty realm", "", "127.0.0.1:5000", "the token realm is not a URL"],
    ["an IPv6 zone (not a URL host)", "http://[fe80::1%25eth0]/token", "ghcr.io", "the token realm is not a URL"],
    ["a data: realm", "data:application/json,{}", "ghcr.io", "refusing the token realm host : its scheme data: is neither https nor http"],
    ["a file: realm", "file:///etc/passwd", "ghcr.io", "refusing the token realm host : its scheme file: is neither https nor http"],
    [
      "plain HTTP elsewhere",
      "http://auth.example.com/token",
      "ghcr.io",
      "refusing the token realm host auth.example.com: plain HTTP to a host that is neither loopback nor listed as insecure",
    ],
  ])("%s", (_name, realm, registry, expected) => expect(verdict(realm, registry)).toBe(expected));

  it("takes plain HTTP to a host listed as insecure, still only on the registry's own private host and port", () => {
    expect(verdict("http://10.0.0.1:5000/token", "10.0.0.1:5000", ["10.0.0.1"])).toBe("ok http://10.0.0.1:5000/token");
    expect(verdict("http://10.0.0.1:5001/token", "10.0.0.1:5000", ["10.0.0.1"])).toBe(
      `refusing the token realm host 10.0.0.1:5001: ${PRIVATE} 10.0.0.1:5000`,
    );
  });

  it("names the realm's host, never its user info, path or query", () => {
    const message = verdict("http://agent:hunter2@127.0.0.1:8080/token?secret=s3", "127.0.0.1:5000");
    expect(message).toBe(`refusing the token realm host 127.0.0.1:8080: ${PRIVATE} 127.0.0.1:5000`);
  });

  it.each([null, undefined, 42, {}, [], Symbol("realm")])("refuses the non-string realm %s with a RegistryError", (value) => {
    expect(() => tokenRealm(value as string, "ghcr.io", [], WHAT)).toThrow(RegistryError);
  });
});
