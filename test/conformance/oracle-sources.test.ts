// The oracle's cache key covers what `go build` compiles: the main package and package cocoon it
// imports, never the benchmarks beside them; otherwise an edit to package cocoon would reuse a
// stale oracle.
import { describe, expect, it } from "vitest";
import { oracleSourceFiles } from "./support/toolchain.js";

describe("oracle sources", () => {
  it("hashes the module files and every subpackage, but no test file", () => {
    const files = oracleSourceFiles();
    expect(files).toEqual(
      expect.arrayContaining(["go.mod", "go.sum", "main.go", "registryclient.go", "cocoon/vmspec.go", "cocoon/patch.go"]),
    );
    expect(files.filter((name) => name.endsWith("_test.go"))).toEqual([]);
    expect(files).toEqual([...files].sort());
  });
});
