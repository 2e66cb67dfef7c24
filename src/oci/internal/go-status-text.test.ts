import { describe, expect, it } from "vitest";
import { goStatusText } from "./go-status-text.js";
import { errorForStatus } from "./registry-http-error.js";

describe("goStatusText", () => {
  it("names statuses as Go's http.StatusText does, where Node's STATUS_CODES differs", () => {
    expect(goStatusText(413)).toBe("Request Entity Too Large");
    expect(goStatusText(414)).toBe("Request URI Too Long");
    expect(goStatusText(416)).toBe("Requested Range Not Satisfiable");
    expect(goStatusText(418)).toBe("I'm a teapot");
    expect(goStatusText(401)).toBe("Unauthorized");
    expect(goStatusText(429)).toBe("Too Many Requests");
  });

  it("is empty for a status Go does not name, an own key only", () => {
    expect(goStatusText(299)).toBe("");
    expect(goStatusText(509)).toBe("");
    expect(goStatusText(Number.NaN)).toBe("");
  });
});

describe("errorForStatus without an error body", () => {
  it("prints Go's reason after the code, and the code alone for a status Go does not name", () => {
    expect(errorForStatus("get blob", "GET /v2/x/blobs/sha256:a", 413, "", {}).message).toBe(
      "get blob: unexpected status code 413 Request Entity Too Large",
    );
    expect(errorForStatus("get blob", "GET /v2/x/blobs/sha256:a", 299, "", {}).message).toBe("get blob: unexpected status code 299");
  });
});
