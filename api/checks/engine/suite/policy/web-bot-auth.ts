import { defineCheck, fail, isSecureOrLocal, notApplicable } from "../../check-types.ts";
import { loadWebBotAuthDirectory, WEB_BOT_AUTH_MEDIA_TYPE } from "../../documents/agent-docs.ts";
import { absence, describeState } from "../../documents/document.ts";
import { describeIssues } from "../../parse/json.ts";
import { mediaTypeOf } from "../../parse/media-type.ts";
import { Verdict } from "../../verdict.ts";
import { judgeDirectoryProofs } from "../../web-bot-auth/directory-proof.ts";
import { DRAFT, judgeDirectoryKeys, KeyDirectorySchema } from "../../web-bot-auth/key-directory.ts";

/**
 * The key directory of a site that runs a signing agent, judged by draft-ietf-webbotauth-httpsig-protocol-01 (the
 * WG draft of 2026-10-29, which folded the directory draft into the protocol): how it is served (§5.5, §5.5.1),
 * its keys (§5.5, §6.4, §6.8), and the optional possession proof on the response (Appendix B.1).
 */
export const webBotAuth = defineCheck({
  id: "policy.webbotauth",
  requests: "`/.well-known/http-message-signatures-directory`",
  passes:
    "if present (draft-ietf-webbotauth-httpsig-protocol-01): a JWK Set answered `200` without a redirect, over HTTPS, as `application/http-message-signatures-directory+json`, of public signing keys (no shared secret, private key or RFC 9421 test key) whose `kid` is their RFC 7638 thumbprint, not all expired; a possession proof, when sent, covers `@authority;req` and `content-digest` and verifies (its absence is only noted); expired keys still listed are `warn`",
  title: "Web Bot Auth key directory (if the site runs an agent)",
  category: "bot-policy",
  severity: "info",
  maturity: "draft",
  profiles: ["agent"],
  remediation:
    "If your agents sign requests, answer /.well-known/http-message-signatures-directory with 200 (no redirect), over HTTPS, as application/http-message-signatures-directory+json: a JWK Set of the public keys in use, each kid its RFC 7638 thumbprint; sign the response with each key over @authority;req and Content-Digest (tag http-message-signatures-directory) to bind the keys to your domain.",
  prompt:
    'Publish /.well-known/http-message-signatures-directory (Content-Type application/http-message-signatures-directory+json, status 200, no redirect): {"keys":[{"kty":"OKP","crv":"Ed25519","x":…,"kid":<RFC 7638 thumbprint of the key>,"use":"sig"}]}. Add Content-Digest: sha-256=:…: of the body, and per key an RFC 9421 signature over ("@authority";req "content-digest") with created, expires, keyid=<thumbprint> and tag="http-message-signatures-directory". Remove expired keys; never list a test key or a private member.',
  specUrls: [
    "https://datatracker.ietf.org/doc/draft-ietf-webbotauth-httpsig-protocol/01/",
    "https://www.rfc-editor.org/rfc/rfc9421",
    "https://www.rfc-editor.org/rfc/rfc7638",
  ],
  async run(context) {
    const document = await loadWebBotAuthDirectory(context);
    const absent = absence(document, "key directory (only needed if the site operates a signing agent)");
    if (absent !== null) return notApplicable(absent);
    if (document.state !== "found" || document.json === null) return fail(describeState(document, "the key directory"));
    if (!document.json.ok) return fail(`the key directory is not JSON: ${document.json.error}`);
    const { response } = document;
    const verdict = new Verdict();
    if (response.redirects.length > 0)
      verdict.must(
        `${DRAFT} §5.5`,
        `it is reached through a redirect to ${response.url}, which verifiers must not follow`,
      );
    if (response.status !== 200) verdict.must(`${DRAFT} §5.5`, `it answers ${response.status}, not 200`);
    if (!isSecureOrLocal(context, new URL(response.url)))
      verdict.must(`${DRAFT} §5.5.1`, "it is not served over HTTPS");
    const type = mediaTypeOf(response);
    if (type !== WEB_BOT_AUTH_MEDIA_TYPE)
      verdict.must(`${DRAFT} §5.5.1`, `it is served as ${type || "no Content-Type"}, not ${WEB_BOT_AUTH_MEDIA_TYPE}`);
    const parsed = KeyDirectorySchema.safeParse(document.json.value);
    if (!parsed.success) {
      verdict.must("RFC 7517 §5", `it is not a JWK Set: ${describeIssues(parsed.error)}`);
      return verdict.outcome("");
    }
    if (parsed.data.keys.length === 0)
      verdict.should(`${DRAFT} §5.5.2`, "it lists no key, so no signature can be verified with it");
    const keys = judgeDirectoryKeys(parsed.data.keys, context.now, verdict);
    const proven = await judgeDirectoryProofs(response, keys, context.now, verdict);
    return verdict.outcome(
      `${keys.length} usable key(s)${proven > 0 ? `, ${proven} with a verified possession proof bound to this domain` : ""}`,
    );
  },
});
