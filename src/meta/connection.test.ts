import { describe, expect, it } from "vitest";
import { connectionType } from "./connection.js";

describe("connectionType (Go TestConnectionType)", () => {
  it.each<[string, string, boolean, string, string]>([
    ["vnc wins", "windows", true, "", "vnc"],
    ["windows", "windows", false, "", "rdp"],
    ["android", "android", false, "", "adb"],
    ["default", "linux", false, "", "ssh"],
    ["override beats os", "linux", false, "rdp", "rdp"],
    ["override beats vnc port", "linux", true, "rdp", "rdp"],
    // go-contract.md §2.3 and §8.5.
    ["macos falls to ssh", "macos", false, "", "ssh"],
    ["empty os is ssh", "", false, "", "ssh"],
    ["unknown os is ssh", "plan9", false, "", "ssh"],
    ["os is case-sensitive", "Windows", false, "", "ssh"],
    ["ANDROID is ssh", "ANDROID", false, "", "ssh"],
    ["vnc beats android", "android", true, "", "vnc"],
    ["override is verbatim, not validated", "linux", false, "Telnet", "Telnet"],
    ["override keeps case", "windows", true, "RDP", "RDP"],
    ["override of spaces is verbatim", "linux", false, " ", " "],
  ])("%s", (_name, os, hasVNCPort, override, want) => {
    expect(connectionType(os, hasVNCPort, override)).toBe(want);
  });
});
