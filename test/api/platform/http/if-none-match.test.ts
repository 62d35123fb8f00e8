import { describe, expect, it } from "vitest";
import { ifNoneMatchNames } from "../../../../api/platform/http/if-none-match.ts";

describe("If-None-Match", () => {
  it("matches the ETag sent back as is, weakly, or anywhere in a list", () => {
    expect(ifNoneMatchNames('"a1"', ['"a1"'])).toBe(true);
    expect(ifNoneMatchNames('W/"a1"', ['"a1"'])).toBe(true);
    expect(ifNoneMatchNames('"zz", W/"a1-gzip" ,"b"', ['"a1"', '"a1-gzip"'])).toBe(true);
  });

  it("does not match another ETag, a missing header or a bare value", () => {
    expect(ifNoneMatchNames('"a2"', ['"a1"'])).toBe(false);
    expect(ifNoneMatchNames(null, ['"a1"'])).toBe(false);
    expect(ifNoneMatchNames("a1", ['"a1"'])).toBe(false);
  });
});
