import canonicalize from "canonicalize";
import type { JSONWebKeySet, ProtectedHeaderParameters } from "jose";
import { z } from "zod";
import { type CheckContext, defineCheck, fail, isSecureOrLocal, notApplicable } from "../../check-types.ts";
import { loadA2aCard } from "../../documents/agent-docs.ts";
import { absence, describeState } from "../../documents/document.ts";
import { describeIssues, isRecord, parseJson } from "../../parse/json.ts";
import { describeAnswer, isJsonMediaType, isSuccess, mediaTypeOf } from "../../parse/media-type.ts";
import { A2aCardLegacySchema, A2aCardV1Schema, SECRET_MEMBER_PATTERN } from "../../remote/a2a-card.ts";
import { Verdict } from "../../verdict.ts";

const SIGNING = "A2A specification §8.4";
/** RFC 7517 §5: a JWK Set is `{keys: [JWK…]}`; jose checks each key itself. */
const JwkSetSchema = z.object({ keys: z.array(z.object({ kty: z.string() }).loose()) });
/** Signatures verified per card: a rotation publishes two at most in practice; each may cost a key-set fetch. */
const MAX_SIGNATURES = 2;

function secretMembers(value: unknown, path = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => secretMembers(item, `${path}[${index}]`));
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([key, member]) =>
    SECRET_MEMBER_PATTERN.test(key) && typeof member === "string" && member !== ""
      ? [`${path}${path === "" ? "" : "."}${key}`]
      : secretMembers(member, `${path}${path === "" ? "" : "."}${key}`),
  );
}

/**
 * The JWS payload an A2A card signature covers (§8.4.1): the card without `signatures`, in its RFC 8785 (JCS) form.
 * The card is taken as served: a signer that dropped default values signed what it serves.
 */
export function signingPayload(card: Record<string, unknown>): string {
  const { signatures: _signatures, ...unsigned } = card;
  return canonicalize(unsigned) ?? "";
}

async function fetchKeySet(context: CheckContext, jku: string): Promise<JSONWebKeySet | string> {
  const response = await context.trail.get(jku, { accept: "application/jwk-set+json, application/json" });
  if (!isSuccess(response)) return `the key set ${jku} answers ${describeAnswer(response)}`;
  const parsed = parseJson(response.text);
  const keySet = JwkSetSchema.safeParse(parsed.ok ? parsed.value : null);
  return keySet.success ? keySet.data : `${jku} is not a JWK Set`;
}

/** §8.4.3: each signature must verify, with the key its protected header names (`kid`, fetched from `jku`). */
async function judgeSignatures(
  context: CheckContext,
  card: Record<string, unknown>,
  verdict: Verdict,
): Promise<string> {
  const signatures = Array.isArray(card.signatures) ? card.signatures : [];
  if (signatures.length === 0) {
    verdict.must(`${SIGNING}.2`, "signatures is present but is not a non-empty array of {protected, signature}");
    return "";
  }
  // Loaded here, for the few cards that carry signatures: not on every start of the server or the CLI.
  const { createLocalJWKSet, decodeProtectedHeader, errors, flattenedVerify } = await import("jose");
  const payload = Buffer.from(signingPayload(card)).toString("base64url");
  let verified = 0;
  for (const [index, signature] of signatures.slice(0, MAX_SIGNATURES).entries()) {
    const which = `signature ${index + 1}`;
    if (!isRecord(signature) || typeof signature.protected !== "string" || typeof signature.signature !== "string") {
      verdict.must(`${SIGNING}.2`, `${which} is not {protected, signature} strings`);
      continue;
    }
    let header: ProtectedHeaderParameters;
    try {
      header = decodeProtectedHeader({ protected: signature.protected });
    } catch {
      verdict.must(`${SIGNING}.2`, `${which}: the protected header is not base64url JSON`);
      continue;
    }
    if (header.alg === undefined || header.kid === undefined) {
      verdict.must(`${SIGNING}.2 (the protected header MUST include alg and kid)`, `${which} lacks alg or kid`);
      continue;
    }
    if (header.jku === undefined || !URL.canParse(header.jku)) {
      verdict.hint(SIGNING, `${which} names no jku, so its key ${header.kid} can only come from a trusted key store`);
      continue;
    }
    const jku = new URL(header.jku);
    if (jku.origin !== context.target.origin) {
      verdict.hint(SIGNING, `${which}'s key set is on ${jku.host}; a scan reads only the site, so it was not fetched`);
      continue;
    }
    if (!isSecureOrLocal(context, jku))
      verdict.should(`${SIGNING}.3`, `the key set ${jku.href} is not served over https`);
    const keys = await fetchKeySet(context, jku.href);
    if (typeof keys === "string") {
      verdict.must(`${SIGNING}.3 (retrieve the public key using kid and jku)`, keys);
      continue;
    }
    try {
      await flattenedVerify(
        { payload, protected: signature.protected, signature: signature.signature },
        createLocalJWKSet(keys),
      );
      verified += 1;
    } catch (error) {
      const why =
        error instanceof errors.JWKSNoMatchingKey
          ? `${jku.pathname} has no key "${header.kid}" for ${header.alg}`
          : error instanceof errors.JWSSignatureVerificationFailed
            ? "it does not verify over the RFC 8785 form of the card without signatures (the card changed after signing?)"
            : error instanceof Error
              ? error.message
              : String(error);
      verdict.must(`${SIGNING}.3`, `${which}: ${why}`);
    }
  }
  return verified > 0 ? `, ${verified} JWS signature(s) verified` : "";
}

export const a2aCard = defineCheck({
  id: "a2a.card",
  requests: "`/.well-known/agent-card.json`, then `agent.json`; a signed card's `jku` key set (same host only)",
  passes:
    "the fields its version requires, `https` interfaces, no secrets; when `signatures` is present, each JWS (its `kid` in the same-host `jku` key set) verifies over the RFC 8785 form of the card without `signatures`; a v0.x card is `warn` (outdated)",
  title: "The A2A agent card (if published) is valid, and its signatures verify",
  category: "capabilities",
  severity: "medium",
  maturity: "standard",
  profiles: ["agent"],
  remediation:
    "Only publish /.well-known/agent-card.json if an A2A endpoint exists; use the v1.0 fields (supportedInterfaces with https URLs, capabilities, input/output modes, skills) and no secrets; sign it (JWS over the RFC 8785 form without signatures) with a key published at the jku the header names, and re-sign after every change.",
  prompt:
    'Update our /.well-known/agent-card.json to A2A v1.0: name, description, version, supportedInterfaces[{url: https…, protocolBinding: "JSONRPC", protocolVersion: "1.0"}], capabilities, defaultInputModes, defaultOutputModes, skills[{id,name,description,tags}]; remove top-level url/preferredTransport and any credentials. If we sign it, sign the RFC 8785 canonical JSON of the card without "signatures" (protected header {alg, typ: "JOSE", kid, jku}), publish the key at jku, and re-sign whenever the card changes.',
  specUrls: [
    "https://a2a-protocol.org/latest/topics/agent-discovery/",
    "https://a2a-protocol.org/latest/specification/#84-agent-card-signing",
    "https://www.rfc-editor.org/rfc/rfc8785",
  ],
  async run(context) {
    const document = await loadA2aCard(context);
    const absent = absence(document, "A2A agent card (only needed if the site runs an A2A agent)");
    if (absent !== null) return notApplicable(absent);
    if (document.state !== "found" || document.json === null) return fail(describeState(document, "the agent card"));
    if (!document.json.ok) return fail(`the agent card is not JSON: ${document.json.error}`);
    const card = document.json.value;
    const secrets = secretMembers(card);
    const verdict = new Verdict();
    if (secrets.length > 0)
      verdict.must(
        "A2A agent discovery (no secrets in a public card)",
        `the public card carries credentials: ${secrets.join(", ")}`,
      );
    if (!isJsonMediaType(mediaTypeOf(document.response)))
      verdict.should("A2A agent discovery", `served as ${mediaTypeOf(document.response) || "no Content-Type"}`);
    const signed = isRecord(card) && "signatures" in card ? await judgeSignatures(context, card, verdict) : "";
    const v1 = A2aCardV1Schema.safeParse(card);
    if (v1.success) {
      const insecure = v1.data.supportedInterfaces.filter(
        (entry) => !URL.canParse(entry.url) || !isSecureOrLocal(context, new URL(entry.url)),
      );
      if (insecure.length > 0)
        verdict.must(
          "A2A specification (transport security)",
          `interface URL(s) are not absolute https: ${insecure.map((entry) => entry.url).join(", ")}`,
        );
      return verdict.outcome(`A2A v1.0 card "${v1.data.name}" with ${v1.data.skills.length} skill(s)${signed}`);
    }
    if (A2aCardLegacySchema.safeParse(card).success)
      verdict.should("A2A v1.0", "outdated shape: an A2A v0.x card (top-level url); v1.0 uses supportedInterfaces");
    else verdict.must("A2A v1.0", `the agent card is not valid A2A: ${v1.success ? "" : describeIssues(v1.error)}`);
    return verdict.outcome("");
  },
});
