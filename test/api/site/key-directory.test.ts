import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jwkThumbprint } from "../../../api/platform/signing/jwk.ts";
import { contentDigest } from "../../../api/platform/signing/key-directory.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { verifyEd25519 } from "../../helpers/rfc9421.ts";

const PATH = "/.well-known/http-message-signatures-directory";
const PREVIOUS = "tdP6K3nscsDfxe2P1m1EzfeqOvFm1jPomKIOlXtMaPA";

let t: TestApp;
beforeAll(async () => {
  // A previous key from the environment: published next to the generated current one until it is removed.
  t = await createTestApp({ env: { BOT_SIGNING_KEY_PREVIOUS: PREVIOUS } });
});
afterAll(() => t.close());

interface Directory {
  keys: Array<{ kty: string; crv: string; x: string; kid: string; use: string }>;
}

describe("GET /.well-known/http-message-signatures-directory (draft-ietf-webbotauth-httpsig-protocol-01 §5.5)", () => {
  it("answers the crawler's keys, current first, as a JWKS with the directory media type and kid = thumbprint", async () => {
    const response = await t.send("GET", PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/http-message-signatures-directory+json");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    const directory = (await response.json()) as Directory;
    const { current, previous } = t.services.signingKeys;
    expect(directory.keys.map((key) => key.x)).toEqual([
      current.publicJwk.x,
      ...previous.map((key) => key.publicJwk.x),
    ]);
    expect(previous).toHaveLength(1);
    for (const key of directory.keys) {
      expect(key).toMatchObject({ kty: "OKP", crv: "Ed25519", use: "sig" });
      expect(key.kid).toBe(jwkThumbprint(key));
      expect(key).not.toHaveProperty("d");
    }
  });

  it("carries one possession proof per key over @authority;req and Content-Digest that an independent verifier accepts", async () => {
    const response = await t.send("GET", PATH);
    const body = await response.text();
    const headers = Object.fromEntries(response.headers);
    expect(headers["content-digest"]).toBe(contentDigest(body));
    const directory = JSON.parse(body) as Directory;
    const request = { method: "GET", url: new URL(PATH, t.config.siteUrl).href, headers: {} };
    const now = Math.floor(Date.now() / 1000);
    directory.keys.forEach((key, index) => {
      const verified = verifyEd25519({ request, response: { status: 200, headers } }, `binding${index}`, key);
      expect(verified.covered).toEqual(['"@authority";req', '"content-digest"']);
      expect(verified.params).toMatchObject({ keyid: key.kid, tag: "http-message-signatures-directory" });
      expect(verified.params.created).toBeLessThanOrEqual(now + 1);
      expect(verified.params.expires).toBeGreaterThan(now);
    });
    // The proof names our own authority, whatever Host a client sent: it cannot be re-served under another.
    const elsewhere = { ...request, url: `https://evil.example${PATH}` };
    expect(() =>
      verifyEd25519(
        { request: elsewhere, response: { status: 200, headers } },
        "binding0",
        directory.keys[0] ?? { x: "" },
      ),
    ).toThrow("does not verify");
  });

  it("answers HEAD without a body and a matching If-None-Match with 304, the proof still attached", async () => {
    const first = await t.send("GET", PATH);
    const etag = first.headers.get("etag") ?? "";
    const head = await t.send("HEAD", PATH);
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const again = await t.send("GET", PATH, undefined, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("signature-input")).toContain('tag="http-message-signatures-directory"');
  });
});
