import { describe, expect, it } from "vitest";
import { rendererUserAgent } from "../../../../../api/checks/engine/render/render-session.ts";
import { signsBrowserRequest } from "../../../../../api/checks/engine/render/render-signing.ts";

describe("how the rendering browser identifies itself", () => {
  it("signs only the checked origin's requests over https", () => {
    const origin = "https://shop.example";
    expect(signsBrowserRequest(new URL("https://shop.example/products/1"), origin)).toBe(true);
    expect(signsBrowserRequest(new URL("https://cdn.shop.example/app.js"), origin)).toBe(false);
    expect(signsBrowserRequest(new URL("https://fonts.example/a.woff2"), origin)).toBe(false);
    expect(signsBrowserRequest(new URL("http://shop.example/"), "http://shop.example")).toBe(false);
    expect(signsBrowserRequest(new URL("https://shop.example:8443/"), origin)).toBe(false);
  });

  it("names the browser first, then the scanner and where to read about it", () => {
    expect(
      rendererUserAgent("156.0.8078.108", "AgentReadyBot/1.0 (+https://agentready.example/docs/checks/crawler)"),
    ).toBe(
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36 AgentReadyBot/1.0 (+https://agentready.example/docs/checks/crawler)",
    );
  });
});
