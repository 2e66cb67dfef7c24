import { describe, expect, it } from "vitest";
import { INT64_SAFE, STRING, always, map, struct } from "./go-type.js";
import { unmarshalGo } from "./unmarshal.js";

const DESCRIPTOR = struct(always("digest", STRING), always("size", INT64_SAFE), always("annotations", map(STRING)));

describe("unmarshalGo", () => {
  it("matches a key as encoding/json folds it, the last match winning and null leaving the value as it was", () => {
    expect(unmarshalGo(DESCRIPTOR, '{"SIZE":1,"size":2,"Size":null}', "d")).toEqual({ digest: "", size: 2 });
    expect(unmarshalGo(DESCRIPTOR, '{"\u017fize":3}', "d")).toEqual({ digest: "", size: 3 }); // ſ folds to s in Go
    expect(unmarshalGo(DESCRIPTOR, '{"sizé":4}', "d")).toEqual({ digest: "", size: 0 });
  });

  it("refuses a wrong JSON kind with Go's message as ERR_SNAPSHOT_FORMAT", () => {
    expect(() => unmarshalGo(DESCRIPTOR, '{"digest":1}', "OCIManifest.config")).toThrow(
      expect.objectContaining({
        code: "ERR_SNAPSHOT_FORMAT",
        message: "json: cannot unmarshal number into Go struct field OCIManifest.config.digest of type string",
      }),
    );
    expect(() => unmarshalGo(DESCRIPTOR, '{"digest":true}', "d")).toThrow(
      "json: cannot unmarshal boolean into Go struct field d.digest of type string",
    );
    expect(() => unmarshalGo(DESCRIPTOR, "[]", "d", { rootName: "manifest" })).toThrow(
      "json: cannot unmarshal array into Go struct field manifest of type struct",
    );
  });

  it("refuses an int64 held as a number past 2^53 − 1, and a fraction", () => {
    expect(unmarshalGo(DESCRIPTOR, `{"size":${String(2 ** 53 - 1)}}`, "d")).toEqual({ digest: "", size: 2 ** 53 - 1 });
    for (const size of [String(2 ** 53), "-9007199254740992", "3.0", "1e2"])
      expect(() => unmarshalGo(DESCRIPTOR, `{"size":${size}}`, "d")).toThrow(
        "json: cannot unmarshal number into Go struct field d.size of type int64",
      );
  });

  it("decodes null map values as Go does, to the zero value", () => {
    expect(unmarshalGo(DESCRIPTOR, '{"annotations":{"a":"b","c":null}}', "d")).toEqual({
      digest: "",
      size: 0,
      annotations: { a: "b", c: "" },
    });
  });

  it("reads one value as json.Unmarshal, the first as json.Decoder, with the texts the callers report", () => {
    const error = (text: string, reader?: "decoder") => {
      try {
        unmarshalGo(DESCRIPTOR, text, "d", reader && { reader });
      } catch (err) {
        return [(err as { code: string }).code, (err as Error).message];
      }
      return null;
    };
    expect(error('{"size":1')).toEqual(["ERR_SNAPSHOT_FORMAT", "unexpected end of JSON input"]);
    expect(error("")).toEqual(["ERR_SNAPSHOT_FORMAT", "unexpected end of JSON input"]);
    expect(error("{} x")?.[1]).toMatch(/^invalid JSON: /u);
    expect(error("{} x", "decoder")).toBeNull();
    expect(error('{"size":1', "decoder")).toEqual(["ERR_SNAPSHOT_FORMAT", "unexpected EOF"]);
    expect(error(" \n", "decoder")).toEqual(["ERR_SNAPSHOT_FORMAT", "EOF"]);
    expect(error("{nope}", "decoder")?.[1]).toMatch(/^invalid JSON: /u);
    expect(unmarshalGo(DESCRIPTOR, new Uint8Array([0x6e, 0x75, 0x6c, 0x6c]), "d")).toEqual({ digest: "", size: 0 });
  });
});
