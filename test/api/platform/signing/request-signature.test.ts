import { describe, expect, it } from "vitest";
import { ed25519KeyFromSeed, jwkThumbprint, newEd25519Seed } from "../../../../api/platform/signing/jwk.ts";
import { crawlerSigner } from "../../../../api/platform/signing/request-signature.ts";
import type { SigningKeyRing } from "../../../../api/platform/signing/signing-keys.ts";
import { parseDictionary, type VerifiableMessage, verifyEd25519 } from "../../../helpers/rfc9421.ts";

// draft-ietf-webbotauth-httpsig-protocol-01 Appendix E.2 (https://www.ietf.org/archive/id/draft-ietf-webbotauth-httpsig-protocol-01.html),
// signed with RFC 9421 Appendix B.1.4's test-key-ed25519.
const TEST_KEY = { x: "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs" };
const E_2_1: VerifiableMessage = {
  request: {
    method: "GET",
    url: "https://example.com/",
    headers: {
      "signature-agent": 'agent2="https://signature-agent.test"',
      "signature-input":
        'sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"',
      signature: "sig2=:RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==:",
    },
  },
};
const E_2_3: VerifiableMessage = {
  request: {
    method: "GET",
    url: "https://signature-agent.test/.well-known/http-message-signatures-directory",
    headers: {},
  },
  response: {
    status: 200,
    headers: {
      "content-digest": "sha-256=:CADMT2aBdV/rqQr/NIru64ERQkCobVvllA4V0fLFDu0=:",
      "signature-input":
        'binding=("@authority";req "content-digest");created=1735689600;expires=4889289600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";tag="http-message-signatures-directory"',
      signature: "binding=:l6P8R67tm3kujAxbHWio7ll01qrEZ0dKD/WWlGhNYEmTnFZM8Wt0VQ9zqGfvo7T/UMkBxsigzChM1Gpz7gOVBg==:",
    },
  },
};

const ring = (): SigningKeyRing => ({ current: ed25519KeyFromSeed(newEd25519Seed()), previous: [] });

describe("the independent RFC 9421 verifier the signing tests rely on", () => {
  it("verifies the draft's Ed25519 request and signed-directory test vectors", () => {
    expect(verifyEd25519(E_2_1, "sig2", TEST_KEY).params.tag).toBe("web-bot-auth");
    expect(verifyEd25519(E_2_3, "binding", TEST_KEY).params.tag).toBe("http-message-signatures-directory");
  });

  it("rejects the same vectors once a covered value changes", () => {
    const otherHost = { request: { ...E_2_1.request, url: "https://example.org/" } };
    expect(() => verifyEd25519(otherHost, "sig2", TEST_KEY)).toThrow("does not verify");
    const otherAgent = {
      request: {
        ...E_2_1.request,
        headers: { ...E_2_1.request.headers, "signature-agent": 'agent2="https://evil.test"' },
      },
    };
    expect(() => verifyEd25519(otherAgent, "sig2", TEST_KEY)).toThrow("does not verify");
  });
});

describe("the crawler's request signatures (Web Bot Auth, draft-ietf-webbotauth-httpsig-protocol-01 §5.2)", () => {
  const keys = ring();
  const sign = crawlerSigner(keys, "https://agent-ready.test");
  const request = { method: "GET", url: "https://example.org/docs/page?x=1", headers: { accept: "*/*" } };

  it("verify with an independent implementation, carrying the tag, keyid, lifetime and coverage the draft requires", async () => {
    const before = Math.floor(Date.now() / 1000);
    const headers = await sign(request);
    const verified = verifyEd25519({ request: { ...request, headers } }, "sig1", keys.current.publicJwk);
    expect(verified.params).toMatchObject({ tag: "web-bot-auth", alg: "ed25519", keyid: keys.current.keyid });
    expect(keys.current.keyid).toBe(jwkThumbprint(keys.current.publicJwk));
    const { created, expires } = verified.params as { created: number; expires: number };
    expect(created).toBeGreaterThanOrEqual(before);
    expect(expires - created).toBeGreaterThan(0);
    expect(expires - created).toBeLessThanOrEqual(24 * 3600);
    expect(verified.covered).toEqual(['"@method"', '"@authority"', '"@path"', '"signature-agent";key="sig1"']);
    // Signature-Agent is a dictionary whose member, keyed by the signature's label, is our directory's https URL.
    const agent = parseDictionary(headers["signature-agent"] ?? "").get("sig1");
    expect(agent).toEqual({
      value: "https://agent-ready.test/.well-known/http-message-signatures-directory",
      params: new Map(),
    });
    expect(headers.accept).toBe("*/*");
  });

  it("binds each signature to its request: another path or host does not verify, and every request has its own nonce", async () => {
    const headers = await sign(request);
    const elsewhere = { request: { ...request, url: "https://example.org/other", headers } };
    expect(() => verifyEd25519(elsewhere, "sig1", keys.current.publicJwk)).toThrow("does not verify");
    const otherHost = { request: { ...request, url: "https://example.net/docs/page", headers } };
    expect(() => verifyEd25519(otherHost, "sig1", keys.current.publicJwk)).toThrow("does not verify");
    const again = await sign(request);
    expect(again["signature-input"]).not.toBe(headers["signature-input"]);
  });
});
