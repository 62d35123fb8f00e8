import { describe, expect, it } from "vitest";
import { json, page } from "../../../fixtures/sites/static-site.ts";
import { checkStaticSite, messageOf, statusOf } from "./_helpers.ts";

/** The weather example of the v1 server-card schema (static.modelcontextprotocol.io/schemas/v1), remote on the site. */
const card = (origin: string) => ({
  $schema: "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
  name: "com.example/weather",
  version: "1.0.0",
  description: "Weather forecasts and alerts for any city.",
  remotes: [{ type: "streamable-http", url: `${origin}/mcp` }],
});

describe("mcp.card's message", () => {
  it("claims only the delivery that holds: a card without an ETag is not said to have ETag/304", async () => {
    const result = await checkStaticSite(
      {
        "/": page("<h1>Weather Service</h1>"),
        "/.well-known/mcp/server-card.json": (origin) => ({
          ...json(card(origin)),
          headers: { "access-control-allow-origin": "*", "cache-control": "public, max-age=3600" },
        }),
      },
      { profile: ["agent"] },
    );
    expect(statusOf(result, "mcp.card")).toBe("pass");
    const message = messageOf(result, "mcp.card");
    expect(message).toMatch(
      /^card com\.example\/weather 1\.0\.0 at 1 location\(s\), with CORS and caching; note: no ETag/,
    );
    expect(message).not.toContain("ETag/304");
  });

  it("says ETag/304 when the card's ETag is answered with 304", async () => {
    const result = await checkStaticSite(
      {
        "/": page("<h1>Weather Service</h1>"),
        "/.well-known/mcp/server-card.json": (origin) => ({ ...json(card(origin)), discovery: true }),
      },
      { profile: ["agent"] },
    );
    expect(statusOf(result, "mcp.card")).toBe("pass");
    expect(messageOf(result, "mcp.card")).toBe(
      "card com.example/weather 1.0.0 at 1 location(s), with CORS, caching and ETag/304",
    );
  });
});
