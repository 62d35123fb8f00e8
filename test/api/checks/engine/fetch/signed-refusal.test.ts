import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineCheckerSettings } from "../../../../../api/checks/engine/settings.ts";
import { ed25519KeyFromSeed, newEd25519Seed } from "../../../../../api/platform/signing/jwk.ts";
import { crawlerSigner } from "../../../../../api/platform/signing/request-signature.ts";
import type { ReadinessResult } from "../../../../../src/schemas/report.ts";
import { type FixtureSite, notFound, pathOf, send, startFixtureSite } from "../../../../fixtures/sites/serve.ts";
import { checkSite, messageOf, statusOf } from "../_helpers.ts";

const PAGE =
  '<!doctype html><html lang="en"><head><title>Signed out</title><meta name="description" content="A site that refuses signed requests">' +
  '<link rel="canonical" href="/"></head><body><main><h1>Signed out</h1><p>A page.</p></main></body></html>';

const SITE_URL = "https://agent-ready.test";
const DIRECTORY = `${SITE_URL}/.well-known/http-message-signatures-directory`;

/**
 * A site whose WAF refuses any request that carries `Signature-Agent` (403) and answers everything else: what the
 * checker meets where an operator blocks declared bots. `signedAsked` counts the refused requests.
 */
let site: FixtureSite;
let result: ReadinessResult;
const received: Array<{ agent: string; signed: boolean }> = [];

beforeAll(async () => {
  site = await startFixtureSite((request, response) => {
    const signed = request.headers["signature-agent"] !== undefined;
    received.push({ agent: request.headers["user-agent"] ?? "", signed });
    if (signed) send(request, response, { status: 403, type: "text/plain; charset=utf-8", body: "Forbidden\n" });
    else if (pathOf(request) === "/") send(request, response, { type: "text/html; charset=utf-8", body: PAGE });
    else notFound(request, response);
  });
  const ring = { current: ed25519KeyFromSeed(newEd25519Seed()), previous: [] };
  const settings = defineCheckerSettings({
    allowedTargets: [site.hostPort],
    siteUrl: SITE_URL,
    signer: crawlerSigner(ring, SITE_URL),
  });
  result = await checkSite(site, { settings });
});
afterAll(() => site.close());

describe("a site that refuses signed requests and answers unsigned ones", () => {
  it("is blocked, not failing: the browser comparison goes out unsigned, with a browser's User-Agent", () => {
    expect(statusOf(result, "http.home-200")).toBe("blocked");
    expect(messageOf(result, "http.home-200")).toContain(
      "GET / with our User-Agent got 403 text/plain; the same request with a browser's User-Agent and no signature got 200 text/html",
    );
    expect(result.incomplete).toBe(true);
    expect(result.score.percent).toBeNull();
    const browsers = received.filter((request) => request.agent.startsWith("Mozilla/5.0"));
    expect(browsers.length).toBeGreaterThan(0);
    expect(browsers.every((request) => !request.signed)).toBe(true);
  });

  it("tells the owner to allow our signature, naming the key directory it verifies against", () => {
    expect(result.blocked?.signals).toContainEqual(expect.objectContaining({ kind: "user-agent" }));
    expect(result.blocked?.allow).toContain(
      `Allow requests whose Web Bot Auth signature verifies with a key of our directory ${DIRECTORY}`,
    );
  });
});
