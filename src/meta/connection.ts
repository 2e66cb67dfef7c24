/**
 * Returns how to connect to a VM: the override when set (verbatim, not validated), `vnc` when it
 * has a VNC port, `adb` for android, `rdp` for windows, and `ssh` for anything else. Never throws.
 *
 * @example
 * ```ts
 * connectionType("windows", false, ""); // => "rdp"
 * connectionType("linux", true, ""); // => "vnc"
 * ```
 */
export function connectionType(osType: string, hasVNCPort: boolean, override: string): string {
  if (override !== "") return override;
  if (hasVNCPort) return "vnc";
  if (osType === "android") return "adb";
  return osType === "windows" ? "rdp" : "ssh";
}
