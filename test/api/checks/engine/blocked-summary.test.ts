import { describe, expect, it } from "vitest";
import { summarizeBlocking } from "../../../../api/checks/engine/blocked-summary.ts";
import { defineCheckerSettings } from "../../../../api/checks/engine/settings.ts";

const signals = [
  { kind: "user-agent" as const, url: "https://shop.example/llms.txt", detail: "403 to us, 200 to a browser" },
];

describe("what a blocked report asks the site owner to allow", () => {
  it("names the Web Bot Auth signature first when the scan signs its requests, the User-Agent as the fallback", () => {
    const settings = defineCheckerSettings({ signer: async ({ headers }) => ({ ...headers, signature: "sig1=:x:" }) });
    const summary = summarizeBlocking([{ status: "blocked" }], signals, settings);
    expect(summary?.allow).toMatch(
      /^Your bot protection answered our scanner with a 403 that a browser does not get\./,
    );
    expect(summary?.allow).toMatch(
      /Allow requests whose Web Bot Auth signature verifies .*or at least the User-Agent "AgentReadyBot/,
    );
    expect(summary?.allow).toContain("/llms.txt");
  });

  it("names only the User-Agent when the requests are not signed, and says nothing when no check was blocked", () => {
    const settings = defineCheckerSettings();
    expect(summarizeBlocking([{ status: "blocked" }], signals, settings)?.allow).toMatch(
      /Allow the User-Agent "AgentReadyBot/,
    );
    expect(summarizeBlocking([{ status: "fail" }], signals, settings)).toBeNull();
  });
});
