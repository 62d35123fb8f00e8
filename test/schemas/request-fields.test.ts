import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { normaliseCreditCode } from "../../api/checks/credit-codes.ts";
import { EMAIL_PATTERN, LegendVersionSchema, PrivacyVersionSchema } from "../../src/schemas/common.ts";
import { DocVersionSchema } from "../../src/schemas/doc.ts";
import { PolicyFrontmatterSchema } from "../../src/schemas/policy.ts";
import { CREDIT_CODE_PATTERN } from "../../src/schemas/requests/checks.ts";
import { SurveyFileSchema } from "../../src/schemas/survey.ts";
import {
  EMAIL_FIELDS,
  entry,
  patternLocations,
  requestSchemaMap,
  schemasDir,
  verdict,
  waitlist,
} from "../helpers/request-schemas.ts";

describe("e-mail fields", () => {
  it("are every field the published request schemas give the e-mail pattern", () => {
    expect(patternLocations(EMAIL_PATTERN)).toEqual(Object.keys(EMAIL_FIELDS).sort());
  });

  it.each([
    ["NUL", "\u0000"],
    ["BEL", "\u0007"],
    ["ESC", "\u001b"],
    ["an ANSI colour sequence", "\u001b[31m"],
    ["DEL", "\u007f"],
    ["C1 NEL", "\u0085"],
    ["C1 CSI", "\u009b"],
  ])(
    "refuse %s in the local part and in the domain, in the published schema and on the server alike",
    (_name, control) => {
      for (const [field, place] of Object.entries(EMAIL_FIELDS)) {
        expect(verdict(...place("ada@example.com")), field).toBe("accepted");
        expect(verdict(...place(`ada${control}@example.com`)), field).toBe("rejected");
        expect(verdict(...place(`ada@exa${control}mple.com`)), field).toBe("rejected");
        expect(verdict(...place(`ada@example.com${control}`)), field).toBe("rejected");
      }
    },
  );

  it("refuse an address written in Unicode, which the transport would rewrite, and take its ASCII (xn--) form", () => {
    expect(verdict("waitlist", { ...waitlist, email: "zoë@exämple.com" })).toBe("rejected");
    expect(verdict("waitlist", { ...waitlist, email: "zoe@exämple.com" })).toBe("rejected");
    expect(verdict("waitlist", { ...waitlist, email: "zoe@xn--exmple-cua.com" })).toBe("accepted");
  });
});

describe("version dates", () => {
  /**
   * The format of a version, as the published schema's pattern and the server's schema judge it (the
   * server also wants the version in force, which /terms.json names and a pattern cannot say).
   */
  function formatVerdict(name: string, property: string, schema: z.ZodType, version: string) {
    const published = JSON.parse(readFileSync(join(schemasDir(), `${name}.json`), "utf8")) as {
      properties: Record<string, { pattern: string }>;
    };
    const byPattern = new RegExp(published.properties[property]?.pattern ?? "^$", "u").test(version);
    const server = schema.safeParse(version).success;
    if (byPattern !== server) return "they disagree";
    return server ? "accepted" : "rejected";
  }

  it.each([
    ["privacy-2026-11-01", "accepted"],
    ["privacy-2026-11-01.2", "accepted"],
    ["privacy-2028-02-29", "accepted"],
    ["privacy-2000-02-29", "accepted"],
    ["privacy-2026-13-01", "rejected"],
    ["privacy-2026-00-10", "rejected"],
    ["privacy-2026-11-31", "rejected"],
    ["privacy-2026-11-00", "rejected"],
    ["privacy-2026-02-30", "rejected"],
    ["privacy-2027-02-29", "rejected"],
    ["privacy-2100-02-29", "rejected"],
    ["privacy-2026-12-32", "rejected"],
  ])("a consent_version of %s is %s", (version, expected) => {
    expect(formatVerdict("agent-waitlist-entry", "consent_version", PrivacyVersionSchema, version)).toBe(expected);
    expect(formatVerdict("waitlist", "consent_version", PrivacyVersionSchema, version)).toBe(expected);
  });

  it("refuses an impossible date in a body outright, as a format error and not only as an old version", () => {
    const problems = requestSchemaMap
      .get("waitlist")
      ?.safeParse({ ...waitlist, consent_version: "privacy-2026-02-30" });
    expect(problems?.error?.issues.map((issue) => issue.message)).toContain(
      "must look like privacy-YYYY-MM-DD or privacy-YYYY-MM-DD.N",
    );
    expect(verdict("waitlist", { ...waitlist, consent_version: "privacy-2026-02-30" })).toBe("rejected");
  });

  it.each([
    ["legend-2026-11-01", "accepted"],
    ["legend-2028-02-29", "accepted"],
    ["legend-2026-13-01", "rejected"],
    ["legend-2026-04-31", "rejected"],
    ["legend-2026-02-29", "rejected"],
  ])("a legend_terms_version of %s is %s", (version, expected) => {
    expect(formatVerdict("waitlist", "legend_terms_version", LegendVersionSchema, version)).toBe(expected);
  });

  it("in doc, policy and survey versions are real dates too", () => {
    expect(DocVersionSchema.safeParse("store--downloads-2026-11-02").success).toBe(true);
    expect(DocVersionSchema.safeParse("store--downloads-2026-19-02").success).toBe(false);
    expect(DocVersionSchema.safeParse("store--downloads-2026-06-31").success).toBe(false);
    expect(PolicyFrontmatterSchema.shape.version.safeParse("refunds-2026-11-01").success).toBe(true);
    expect(PolicyFrontmatterSchema.shape.version.safeParse("refunds-2026-11-31").success).toBe(false);
    expect(SurveyFileSchema.shape.version.safeParse("agent-survey-2026-02-30").success).toBe(false);
  });
});

describe("capabilities", () => {
  it("must be unique, in the published schema and on the server alike", () => {
    expect(verdict("agent-waitlist-entry", { ...entry, capabilities: ["read", "write"] })).toBe("accepted");
    expect(verdict("agent-waitlist-entry", { ...entry, capabilities: ["read", "write", "read"] })).toBe("rejected");
  });
});

describe("the check-redeem schema", () => {
  it("publishes the credit-code pattern", () => {
    const published = JSON.parse(readFileSync(join(schemasDir(), "check-redeem.json"), "utf8")) as {
      properties: { code: { pattern?: string } };
    };
    expect(published.properties.code.pattern).toBe(CREDIT_CODE_PATTERN);
    expect(verdict("check-redeem", { code: "7K2QD-M4X9T-P0RVA-8HC3E-J" })).toBe("accepted");
    expect(verdict("check-redeem", { code: "7k2qd m4x9t p0rva 8hc3e j" })).toBe("accepted");
    expect(verdict("check-redeem", { code: "ABC" })).toBe("rejected");
    expect(verdict("check-redeem", { code: "UK2QD-M4X9T-P0RVA-8HC3E-J" })).toBe("rejected");
  });

  it("accepts exactly what the server can read as a code (a wrong check symbol is the server's to say)", () => {
    const symbols = [..."0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefgiloquz*~$=- "];
    // Mostly near the length of a code (21 symbols and some separators), where the cases are.
    const typed = fc.oneof(
      fc.array(fc.constantFrom(...symbols), { minLength: 20, maxLength: 25 }),
      fc.array(fc.constantFrom(...symbols), { maxLength: 40 }),
    );
    fc.assert(
      fc.property(typed, (characters) => {
        const code = characters.join("");
        const checked = normaliseCreditCode(code);
        const readable = checked.ok || checked.reason === "check-symbol";
        expect(verdict("check-redeem", { code })).toBe(readable ? "accepted" : "rejected");
      }),
      { numRuns: 2_000 },
    );
  });
});
