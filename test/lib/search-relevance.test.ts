import { describe, expect, it } from "vitest";
import { queryWasFound } from "../../src/lib/search-relevance.ts";

// The words are what Pagefind 1.5.2 matched on the first result for each query, on this site's docs
// (recorded in a browser against the built index): a fallback to a stub, or a real match.
describe("telling a docs search that found its words from one that fell back to a stub", () => {
  it.each([
    ["xqzvbnw", ["-X", "-X", "-X"]],
    ["asdfgh", ["as", "as", "join_agent_waitlist_as_agent."]],
    ["qwertyuiop", ["q."]],
    ["rate xqzv", ["-X", "rate-limited.", "rate"]],
    ["happiness", ["-H", "-H"]],
  ])("refuses %s, which only matched a letter or two of it", (query, matched) => {
    expect(queryWasFound(query, matched)).toBe(false);
  });

  it.each([
    ["unguessable", ["unguessable"]],
    ["toke", ["token", "token.", '"token_type":']],
    ["tokens", ["token", "Tokens", "tokens"]],
    ["policies", ["policies,", "policy.", "/api/v1/policies/privacy,"]],
    ["rate lim", ["Rate", "limits.", "RateLimit-Policy,"]],
    ["rate-limit", ["RateLimit-Policy,", "RateLimit"]],
    ["authentcation", ["Authentication.", "WWW-Authenticate."]],
    ["Été", ["ete"]],
  ])("keeps %s, whose words the page has (a prefix, a stem, a typo)", (query, matched) => {
    expect(queryWasFound(query, matched)).toBe(true);
  });

  it("counts a word found in the result's title", () => {
    expect(queryWasFound("quickstart", ["curl", "Quickstart for agents"])).toBe(true);
  });
});
