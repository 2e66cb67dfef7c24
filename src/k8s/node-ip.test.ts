import type { NetworkInterfaceInfo } from "node:os";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import { detectNodeIP, type NetworkInterfaceMap, NoNodeIPError } from "./node-ip.js";

const v4 = (address: string, internal = false): NetworkInterfaceInfo => ({
  address,
  netmask: "255.255.255.0",
  family: "IPv4",
  mac: "02:00:00:00:00:01",
  internal,
  cidr: `${address}/24`,
});
const v6 = (address: string, internal = false): NetworkInterfaceInfo => ({
  address,
  netmask: "ffff:ffff:ffff:ffff::",
  family: "IPv6",
  mac: "02:00:00:00:00:01",
  internal,
  cidr: `${address}/64`,
  scopeid: 0,
});

describe("detectNodeIP", () => {
  it.each<[string, NetworkInterfaceMap, string]>([
    ["skips loopback", { lo: [v4("127.0.0.1", true), v6("::1", true)], eth0: [v4("10.0.0.5")] }, "10.0.0.5"],
    [
      "first interface in listed order wins",
      { lo: [v4("127.0.0.1", true)], eth0: [v4("10.0.0.5")], docker0: [v4("172.17.0.1")] },
      "10.0.0.5",
    ],
    ["listed order, not name order", { lo: [v4("127.0.0.1", true)], eth1: [v4("10.1.0.1")], eth0: [v4("10.0.0.1")] }, "10.1.0.1"],
    ["bridge addresses are not filtered", { docker0: [v4("172.17.0.1")], eth0: [v4("10.0.0.5")] }, "172.17.0.1"],
    ["link-local is not filtered", { eth0: [v4("169.254.1.2")] }, "169.254.1.2"],
    ["first IPv4 of an interface", { eth0: [v6("fd00::2"), v4("10.0.0.7"), v4("10.0.0.8")] }, "10.0.0.7"],
    ["skips IPv6-only interfaces", { eth0: [v6("fe80::1")], eth1: [v4("192.168.1.9")] }, "192.168.1.9"],
    ["any 127/8 address is loopback", { lo: [v4("127.0.0.1", true)], eth0: [v4("127.1.2.3")], eth1: [v4("10.0.0.9")] }, "10.0.0.9"],
    [
      "a non-127 address on lo counts (Go checks the address, not the flag)",
      { lo: [v4("127.0.0.1", true), v4("10.9.9.9", true)] },
      "10.9.9.9",
    ],
    ["IPv4-mapped IPv6 has an IPv4 form", { eth0: [v6("::ffff:10.2.3.4")] }, "10.2.3.4"],
    ["IPv4-mapped loopback is loopback", { eth0: [v6("::ffff:127.0.0.1")], eth1: [v4("10.0.0.1")] }, "10.0.0.1"],
    ["numeric family from Node 18.0-18.3", { eth0: [{ ...v4("10.4.4.4"), family: 4 as unknown as "IPv4" }] }, "10.4.4.4"],
    ["undefined entries are skipped", { eth0: undefined, eth1: [v4("10.0.0.3")] }, "10.0.0.3"],
  ])("%s", (_name, interfaces, want) => {
    expect(detectNodeIP(interfaces)).toBe(want);
  });

  it.each<[string, NetworkInterfaceMap]>([
    ["no interfaces", {}],
    ["loopback only", { lo: [v4("127.0.0.1", true), v6("::1", true)] }],
    ["IPv6 only", { eth0: [v6("fd00::2"), v6("fe80::1")] }],
  ])("throws ErrNoNodeIP for %s", (_name, interfaces) => {
    let thrown: unknown;
    try {
      detectNodeIP(interfaces);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(NoNodeIPError);
    expect(isCocoonError(thrown)).toBe(true);
    expect((thrown as Error).name).toBe("NoNodeIPError");
    expect((thrown as Error).message).toBe("no non-loopback IPv4 address found");
  });

  it("reads os.networkInterfaces() by default", () => {
    let result: string | undefined;
    try {
      result = detectNodeIP();
    } catch (err) {
      expect((err as Error).name).toBe("NoNodeIPError");
      return;
    }
    expect(result).toMatch(/^\d{1,3}(\.\d{1,3}){3}$/);
    expect(result.startsWith("127.")).toBe(false);
  });
});
