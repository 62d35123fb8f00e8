import { describe, expect, it } from "vitest";
import { rendererUserAgent } from "../../../../../api/checks/engine/render/render-session.ts";

describe("how the rendering browser identifies itself", () => {
  it("names the browser first, then the scanner and where to read about it", () => {
    expect(
      rendererUserAgent("156.0.8078.108", "AgentReadyBot/1.0 (+https://agentready.example/docs/checks/crawler)"),
    ).toBe(
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36 AgentReadyBot/1.0 (+https://agentready.example/docs/checks/crawler)",
    );
  });
});
