import { describe, expect, it } from "vitest";
import { ed25519KeyFromSeed, newEd25519Seed } from "../../../../api/platform/signing/jwk.ts";
import { keyDirectoryBody, signKeyDirectory } from "../../../../api/platform/signing/key-directory.ts";
import type { SigningKeyRing } from "../../../../api/platform/signing/signing-keys.ts";
import type { ReadinessResult } from "../../../../src/schemas/report.ts";
import type { DocumentOptions, FixtureSite } from "../../../fixtures/sites/serve.ts";
import { startStaticSite } from "../../../fixtures/sites/static-site.ts";
import { checkSite, messageOf, statusOf } from "./_helpers.ts";

const PATH = "/.well-known/http-message-signatures-directory";
const TYPE = "application/http-message-signatures-directory+json";
const ring: SigningKeyRing = { current: ed25519KeyFromSeed(newEd25519Seed()), previous: [] };
const HOUR = 3_600_000;

/** A site whose only document is this directory, checked as an agent site. */
async function judge(document: DocumentOptions | ((origin: string) => Promise<DocumentOptions>), extra = {}) {
  const documents: Record<string, DocumentOptions> = { ...extra };
  const site: FixtureSite = await startStaticSite(documents);
  try {
    documents[PATH] = typeof document === "function" ? await document(site.origin) : document;
    const result: ReadinessResult = await checkSite(site, { profile: ["agent"] });
    return { status: statusOf(result, "policy.webbotauth"), message: messageOf(result, "policy.webbotauth") };
  } finally {
    await site.close();
  }
}

/** Our own directory, signed for the fixture's origin at `at`, optionally served with another body. */
const signed =
  (at = new Date(), body = keyDirectoryBody(ring), type = TYPE) =>
  async (origin: string): Promise<DocumentOptions> => ({
    type,
    body,
    discovery: true,
    headers: await signKeyDirectory(ring, keyDirectoryBody(ring), origin, at),
  });

describe("policy.webbotauth (draft-ietf-webbotauth-httpsig-protocol-01)", () => {
  it("passes a directory like ours, its possession proof verified for this origin", async () => {
    const { status, message } = await judge(signed());
    expect(status).toBe("pass");
    expect(message).toBe("1 usable key(s), 1 with a verified possession proof bound to this domain");
  });

  it("fails a proof whose Content-Digest no longer matches the keys served", async () => {
    const swapped = JSON.stringify({
      keys: [{ ...ring.current.publicJwk, x: ed25519KeyFromSeed(newEd25519Seed()).publicJwk.x }],
    });
    const { status, message } = await judge(signed(new Date(), swapped));
    expect(status).toBe("fail");
    expect(message).toContain("Content-Digest sha-256 is not the digest of the body");
  });

  it("fails a proof dated in the future and one that has expired", async () => {
    expect((await judge(signed(new Date(Date.now() + HOUR)))).message).toContain("binding0 was created in the future");
    expect((await judge(signed(new Date(Date.now() - 48 * HOUR)))).message).toContain("binding0 has expired");
  });

  it("fails a proof made for another authority: it was copied, not assembled by the key's holder", async () => {
    const copied = async (): Promise<DocumentOptions> => ({
      type: TYPE,
      body: keyDirectoryBody(ring),
      headers: await signKeyDirectory(ring, keyDirectoryBody(ring), "https://elsewhere.example", new Date()),
    });
    const { status, message } = await judge(copied);
    expect(status).toBe("fail");
    expect(message).toContain("binding0 does not verify with the key its keyid names");
  });

  it("fails the generic JSON media type, which -01 makes a MUST at the well-known URI", async () => {
    const { status, message } = await judge(signed(new Date(), keyDirectoryBody(ring), "application/json"));
    expect(status).toBe("fail");
    expect(message).toContain(`served as application/json, not ${TYPE}`);
  });

  it("fails a directory reached through a redirect, which verifiers must not follow", async () => {
    const moved = { status: 301, type: "text/plain", body: "", headers: { location: "/keys.json" } };
    const { status, message } = await judge(moved, { "/keys.json": { type: TYPE, body: keyDirectoryBody(ring) } });
    expect(status).toBe("fail");
    expect(message).toContain("redirect");
  });

  it("fails RFC 9421's test key, a private member and a shared secret; notes a missing proof without lowering a pass", async () => {
    const key = (jwk: object) => ({ type: TYPE, body: JSON.stringify({ keys: [jwk] }) });
    const test = await judge(key({ kty: "OKP", crv: "Ed25519", x: "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs" }));
    expect(test.message).toContain("RFC 9421's test-key-ed25519");
    const leaked = await judge(key({ ...ring.current.publicJwk, d: "n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU" }));
    expect(leaked.message).toContain("publishes its private key");
    const hmac = await judge(key({ kty: "oct", k: "c2VjcmV0" }));
    expect(hmac.message).toContain("shared secret");
    expect([test.status, leaked.status, hmac.status]).toEqual(["fail", "fail", "fail"]);
    const unsigned = await judge(key(ring.current.publicJwk));
    expect(unsigned.status).toBe("pass");
    expect(unsigned.message).toContain("no possession proof");
  });

  it("warns about expired keys still listed beside a valid one, and fails when every key has expired", async () => {
    const expired = { ...ed25519KeyFromSeed(newEd25519Seed()).publicJwk, exp: 1_700_000_000 };
    const mixed = await judge({ type: TYPE, body: JSON.stringify({ keys: [ring.current.publicJwk, expired] }) });
    expect(mixed.status).toBe("warn");
    const all = await judge({ type: TYPE, body: JSON.stringify({ keys: [expired] }) });
    expect(all.status).toBe("fail");
    expect(all.message).toContain("every key in the directory has expired");
  });
});
