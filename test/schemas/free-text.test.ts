import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_AGENT_SCOPES } from "../../src/lib/registry.ts";
import { FREE_TEXT_PATTERN, PARAGRAPHS_PATTERN } from "../../src/schemas/common.ts";
import { bearer, expectProblem } from "../helpers/agents.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  entry,
  patternLocations,
  surveyAnswer,
  validSurveyAnswers,
  verdict,
  waitlist,
} from "../helpers/request-schemas.ts";

const registration = { agent_name: "Scout", agent_type: "assistant", operator_type: "company" };

/**
 * Every free-text field of every request body, with a text put in its place: the body's name, the
 * body, and the JSON Pointer a 422 must name.
 */
const FREE_TEXT_FIELDS: Record<string, (text: string) => [string, unknown, string]> = {
  "agent-registration#/agent_name": (text) => [
    "agent-registration",
    { ...registration, agent_name: text },
    "#/agent_name",
  ],
  "agent-registration#/agent_type": (text) => [
    "agent-registration",
    { ...registration, agent_type: text },
    "#/agent_type",
  ],
  "agent-waitlist-entry#/agent_name": (text) => [
    "agent-waitlist-entry",
    { ...entry, agent_name: text },
    "#/agent_name",
  ],
  "agent-waitlist-entry#/agent_type": (text) => [
    "agent-waitlist-entry",
    { ...entry, agent_type: text },
    "#/agent_type",
  ],
  "agent-waitlist-entry#/use_cases/*": (text) => [
    "agent-waitlist-entry",
    { ...entry, use_cases: ["read docs", "compare prices", text] },
    "#/use_cases/2",
  ],
  "agent-waitlist-entry#/tools_used/*": (text) => [
    "agent-waitlist-entry",
    { ...entry, tools_used: [text] },
    "#/tools_used/0",
  ],
  "check-input#/domain": (text) => ["check-input", { domain: text }, "#/domain"],
  "monitor-input#/domain": (text) => ["monitor-input", { domain: text, email: "ada@example.com" }, "#/domain"],
  "agent-monitor-input#/domain": (text) => ["agent-monitor-input", { domain: text }, "#/domain"],
  "waitlist#/name": (text) => ["waitlist", { ...waitlist, name: text }, "#/name"],
  "waitlist#/interests/*": (text) => ["waitlist", { ...waitlist, interests: ["docs", text] }, "#/interests/1"],
};
/** The survey's text answers take paragraphs: line breaks and tabs, and nothing else of the kind. */
const PARAGRAPH_FIELDS: Record<string, (text: string) => [string, unknown, string]> = {
  "agent-survey#/answers/one_change": (text) => [
    "agent-survey",
    surveyAnswer({ ...validSurveyAnswers(), one_change: text }),
    "#/answers/one_change",
  ],
};

const REFUSED: [string, string][] = [
  ["NUL", "x\u0000y"],
  ["BEL", "x\u0007"],
  ["a screen-clearing and title-setting escape", "X\u001b[2J\u001b]0;PWNED\u0007"],
  ["DEL", "x\u007f"],
  ["C1 CSI", "x\u009b2J"],
  ["C1 NEL", "x\u0085y"],
  ["a right-to-left override", "abc\u202Edcba"],
  ["a left-to-right embedding", "\u202Aabc"],
  ["a first-strong isolate", "abc\u2068def\u2069"],
  ["a right-to-left mark", "abc\u200F"],
  ["an Arabic letter mark", "abc\u061C"],
];
/** Characters that show as nothing (Default_Ignorable_Code_Point) and line separators: refused on one line only. */
const INVISIBLE: [string, string][] = [
  ["a zero width space", "Sc\u200Bout"],
  ["a byte-order mark", "\uFEFFScout"],
  ["a line separator", "Scout\u2028Evil"],
  ["a paragraph separator", "Scout\u2029"],
  ["tag characters (invisible ASCII)", "Scout\u{E0069}\u{E0067}\u{E006E}"],
  ["a Hangul filler", "\u3164"],
  ["a soft hyphen", "Sc\u00ADout"],
  ["a word joiner", "Sco\u2060ut"],
  ["a zero width joiner between Latin letters", "ad\u200Dmin"],
  ["a zero width non-joiner between Latin letters", "ad\u200Cmin"],
  ["a variation selector after a letter", "Scout\uFE0F"],
  ["a joiner at the end", "👨\u200D"],
];
/** Half of a surrogate pair on its own: not text at all, in any field. */
const ILL_FORMED: [string, string][] = [
  ["a lone high surrogate", "Scout\uD800"],
  ["a lone low surrogate", "\uDC00Scout"],
  ["two high surrogates", "\uD83D\uD83D"],
];
const ACCEPTED = [
  "Scout",
  "Çà et là 🤖 — «ok»",
  "名前のエージェント",
  "עברית بالعربية",
  "a family 👨‍👩‍👧, a flag 🏳️‍🌈, a keycap 1️⃣ and a heart ❤️",
  "می‌خواهم (Persian, with its zero width non-joiner)",
  "क्‍ष (Devanagari, with a zero width joiner after the virama)",
  "tab-free, one line",
];

describe("free-text fields", () => {
  it("are every field the published request schemas give the free-text or paragraphs pattern", () => {
    expect(patternLocations(FREE_TEXT_PATTERN)).toEqual(Object.keys(FREE_TEXT_FIELDS).sort());
    expect(patternLocations(PARAGRAPHS_PATTERN)).toEqual(Object.keys(PARAGRAPH_FIELDS).sort());
  });

  it.each(REFUSED)("refuse %s, in the published schema and on the server alike", (_name, text) => {
    for (const [field, place] of Object.entries({ ...FREE_TEXT_FIELDS, ...PARAGRAPH_FIELDS })) {
      const [name, body] = place(text);
      expect(verdict(name, body), field).toBe("rejected");
    }
  });

  it.each(INVISIBLE)(
    "refuse %s on one line, and take it in a paragraph, in the published schema and on the server alike",
    (_name, text) => {
      for (const [field, place] of Object.entries(FREE_TEXT_FIELDS))
        expect(verdict(...dropPointer(place(text))), field).toBe("rejected");
      for (const [field, place] of Object.entries(PARAGRAPH_FIELDS))
        expect(verdict(...dropPointer(place(text))), field).toBe("accepted");
    },
  );

  it.each(ILL_FORMED)("refuse %s everywhere, in the published schema and on the server alike", (_name, text) => {
    for (const [field, place] of Object.entries({ ...FREE_TEXT_FIELDS, ...PARAGRAPH_FIELDS }))
      expect(verdict(...dropPointer(place(text))), field).toBe("rejected");
  });

  it("refuse line breaks and tabs on one line, and take them in a paragraph", () => {
    for (const [field, place] of Object.entries(FREE_TEXT_FIELDS)) {
      expect(verdict(...dropPointer(place("two\nlines"))), field).toBe("rejected");
      expect(verdict(...dropPointer(place("a\ttab"))), field).toBe("rejected");
      expect(verdict(...dropPointer(place("line\rover"))), field).toBe("rejected");
    }
    for (const [field, place] of Object.entries(PARAGRAPH_FIELDS))
      expect(verdict(...dropPointer(place("First paragraph.\n\n\tSecond, indented.\r\nThird."))), field).toBe(
        "accepted",
      );
  });

  it.each(ACCEPTED)("take %s, in the published schema and on the server alike", (text) => {
    for (const [field, place] of Object.entries({ ...FREE_TEXT_FIELDS, ...PARAGRAPH_FIELDS })) {
      if (field.endsWith("#/domain")) continue;
      expect(verdict(...dropPointer(place(text))), field).toBe("accepted");
    }
  });
});

const dropPointer = ([name, body]: [string, unknown, string]): [string, unknown] => [name, body];

/** The operation that takes each body, and whether it needs a token. */
const ENDPOINTS: Record<string, { path: string; auth: boolean }> = {
  "agent-registration": { path: "/api/v1/agents/register", auth: false },
  "agent-waitlist-entry": { path: "/api/v1/agents/waitlist", auth: true },
  "agent-survey": { path: "/api/v1/agents/survey", auth: true },
  "check-input": { path: "/api/v1/checks", auth: false },
  "monitor-input": { path: "/api/v1/monitors", auth: false },
  "agent-monitor-input": { path: "/api/v1/agents/monitors", auth: true },
  waitlist: { path: "/api/v1/waitlist", auth: false },
};

describe("the API, given a control or bidirectional-override character in any free-text field", () => {
  let t: TestApp;
  let token: string;
  let client = 0;
  beforeAll(async () => {
    // One token sends every agent body here: its per-token limits must not answer before the schema does.
    t = await createTestApp({ env: { RATE_LIMITS: "agent-writes=1000/60,monitors=1000/60" } });
    // One token for every agent body: the default scopes, and monitors:write for the agents' monitors.
    const identity = { ...registration, operator_type: "company" as const };
    token = (await t.services.agents.register(identity, "staff", [...DEFAULT_AGENT_SCOPES, "monitors:write"])).token;
  });
  afterAll(() => t.close());

  it.each([
    ["the probe's terminal escapes", "X\u001b[2J\u001b]0;PWNED\u0007"],
    ["a NUL byte (SQLite would keep only what comes before it)", "x\u0000y"],
    ["a right-to-left override", "Scout\u202Etxt.exe"],
  ])("answers 422 naming the field, and stores nothing: %s", async (_name, text) => {
    for (const [field, place] of Object.entries({ ...FREE_TEXT_FIELDS, ...PARAGRAPH_FIELDS })) {
      const [name, body, pointer] = place(text);
      const endpoint = ENDPOINTS[name];
      if (!endpoint) throw new Error(`no endpoint for ${name}`);
      client++;
      const response = await t.send("POST", endpoint.path, body, {
        "x-forwarded-for": `198.51.100.${client % 250}`,
        ...(endpoint.auth ? bearer(token) : {}),
      });
      const problem = await expectProblem(response, 422, "validation-failed");
      expect(problem.errors, field).toEqual([
        { pointer, detail: expect.stringMatching(/^must not contain control or bidirectional-override characters/) },
      ]);
    }
    const stored = await t.services.database.client.execute(
      "SELECT agent_name AS text FROM agents UNION ALL SELECT name FROM waitlist_signups UNION ALL SELECT use_cases FROM agent_waitlist_entries UNION ALL SELECT host FROM monitors",
    );
    expect(stored.rows.map((row) => row.text)).toEqual(["Scout"]);
  });

  it.each([
    [
      "a zero width space",
      "Sc\u200Bout",
      "U+200B at character 3",
      /^must not contain invisible \(default-ignorable\) characters or line separators: /,
    ],
    ["a byte-order mark", "\uFEFFScout", "U+FEFF at character 1", /^must not contain invisible/],
    ["a tag character", "Scout\u{E0041}", "U+E0041 at character 6", /^must not contain invisible/],
    [
      "a lone surrogate, sent as JSON's \\ud800 escape",
      "Sc\uD800out",
      "U+D800 at character 3",
      /^must be well-formed Unicode text: /,
    ],
  ])(
    "answers 422 naming every single-line field that holds %s, and stores nothing",
    async (_name, text, where, message) => {
      for (const [field, place] of Object.entries(FREE_TEXT_FIELDS)) {
        const [name, body, pointer] = place(text);
        const endpoint = ENDPOINTS[name];
        if (!endpoint) throw new Error(`no endpoint for ${name}`);
        client++;
        // JSON.stringify writes a lone surrogate as its \u escape, which JSON.parse turns back into one.
        const response = await t.send("POST", endpoint.path, JSON.stringify(body), {
          "content-type": "application/json",
          "x-forwarded-for": `198.51.100.${client % 250}`,
          ...(endpoint.auth ? bearer(token) : {}),
        });
        const problem = await expectProblem(response, 422, "validation-failed");
        expect(problem.errors, field).toEqual([{ pointer, detail: expect.stringMatching(message) }]);
        expect(String((problem.errors as { detail: string }[])[0]?.detail), field).toContain(`found ${where}`);
      }
      const stored = await t.services.database.client.execute(
        "SELECT agent_name AS text FROM agents UNION ALL SELECT name FROM waitlist_signups UNION ALL SELECT use_cases FROM agent_waitlist_entries UNION ALL SELECT host FROM monitors",
      );
      expect(stored.rows.map((row) => row.text)).toEqual(["Scout"]);
    },
  );

  it("answers 400 to a body that is not UTF-8, rather than reading U+FFFD in place of its bytes", async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"agent_name": "Sc'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('out", "agent_type": "assistant", "operator_type": "company"}'),
    ]);
    const response = await t.app.request("/api/v1/agents/register", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.251" },
      body: bytes,
    });
    const problem = await expectProblem(response, 400, "malformed-json");
    expect(problem.detail).toBe("The body is not valid JSON: it is not valid UTF-8");
  });

  it("says which character it found and where, since most of them are invisible", async () => {
    const response = await t.send("POST", "/api/v1/agents/register", { ...registration, agent_name: "ab\u202Ecd" });
    const problem = await expectProblem(response, 422, "validation-failed");
    expect(problem.errors).toEqual([
      {
        pointer: "#/agent_name",
        detail:
          "must not contain control or bidirectional-override characters (line breaks and tabs included): found U+202E at character 3",
      },
    ]);
  });
});
