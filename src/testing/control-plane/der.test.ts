import { describe, expect, it } from "vitest";
import { integer, keyUsageBits, octets, oid, sequence, time } from "./der.js";

const hex = (buf: Buffer): string => buf.toString("hex");

describe("der", () => {
  it.each([
    ["small", integer(2), "020102"],
    ["zero", integer(0), "020100"],
    ["high bit gets a zero byte", integer(Buffer.from([0x80])), "02020080"],
    ["leading zeros trimmed", integer(Buffer.from([0, 0, 0x7f])), "02017f"],
  ])("integer %s", (_name, encoded, expected) => {
    expect(hex(encoded)).toBe(expected);
  });

  it.each([
    ["commonName", "2.5.4.3", "0603550403"],
    ["ecdsa-with-SHA256", "1.2.840.10045.4.3.2", "06082a8648ce3d040302"],
    ["clientAuth", "1.3.6.1.5.5.7.3.2", "06082b06010505070302"],
  ])("oid %s", (_name, dotted, expected) => {
    expect(hex(oid(dotted))).toBe(expected);
  });

  it.each([
    ["short form", 127, "7f"],
    ["one length byte", 128, "8180"],
    ["two length bytes", 300, "82012c"],
  ])("length %s", (_name, size, prefix) => {
    expect(hex(octets(Buffer.alloc(size))).slice(2, 2 + prefix.length)).toBe(prefix);
  });

  it.each([
    ["UTCTime before 2050", new Date("2026-11-29T21:14:25.123Z"), "170d3236313132393231313432355a"],
    ["GeneralizedTime from 2050", new Date("2050-01-02T03:04:05Z"), "180f32303530303130323033303430355a"],
  ])("time %s", (_name, date, expected) => {
    expect(hex(time(date))).toBe(expected);
  });

  it.each([
    ["digitalSignature", [0], "03020780"],
    ["digitalSignature+keyCertSign", [0, 5], "03020284"],
  ])("keyUsage %s", (_name, bitNumbers, expected) => {
    expect(hex(keyUsageBits(...bitNumbers))).toBe(expected);
  });

  it("nests sequences", () => {
    expect(hex(sequence(integer(1), sequence()))).toBe("3005020101" + "3000");
  });
});
