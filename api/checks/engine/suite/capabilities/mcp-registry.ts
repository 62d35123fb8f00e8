import { isIP } from "node:net";
import { defineCheck, notApplicable } from "../../check-types.ts";
import { absence, describeState, fetchDocument, pathUrl } from "../../documents/document.ts";
import { foundCards, loadMcpCards } from "../../documents/mcp.ts";
import { cardIdentity } from "../../remote/mcp-card.ts";
import { Verdict } from "../../verdict.ts";

const AUTHENTICATION = "https://modelcontextprotocol.io/registry/authentication";
const REGISTRY_HTTP_AUTH = "registry internal/api/handlers/v0/auth";
/** The registry's own proof pattern (common.go `ParseMCPKeysFromStrings`). */
const PROOF = /v=MCPv1;\s*k=([^;]+);\s*p=([A-Za-z0-9+/=]+)/;
/** Raw key sizes the registry accepts: Ed25519, and a compressed P-384 point (common.go `ParsePublicKey`). */
const KEY_BYTES: Readonly<Record<string, number>> = { ed25519: 32, ecdsap384: 49 };

/** What is wrong with a `v=MCPv1; k=…; p=…` proof, as the registry would reject it; null when it would accept it. */
export function proofProblem(text: string): string | null {
  const match = PROOF.exec(text);
  if (match === null) return "the proof does not read `v=MCPv1; k=<algorithm>; p=<base64 public key>`";
  const [, algorithm = "", key = ""] = match;
  const size = KEY_BYTES[algorithm];
  if (size === undefined) return `k=${algorithm} is not an algorithm the registry accepts (ed25519 or ecdsap384)`;
  // A common slip: the key written out in hex (Buffer#toString("hex")), which base64 decodes to 1.5 times its size.
  if (key.length === size * 2 && /^[0-9a-f]+$/i.test(key))
    return `p= is ${key.length} hex digits: the registry reads the ${size}-byte ${algorithm} key in base64`;
  const bytes = Buffer.from(key, "base64");
  if (bytes.length !== size)
    return `p= decodes to ${bytes.length} bytes, not the ${size} of an ${algorithm} public key`;
  if (algorithm === "ecdsap384" && bytes[0] !== 0x02 && bytes[0] !== 0x03)
    return "p= is not a compressed P-384 point (it must start with 0x02 or 0x03)";
  return null;
}

/** `com.example.api/server` → `api.example.com`; null for a name without a namespace. */
export function namespaceDomain(name: string): string | null {
  const slash = name.indexOf("/");
  if (slash <= 0) return null;
  return name.slice(0, slash).split(".").reverse().join(".").toLowerCase();
}

/**
 * Domain authentication grants the reverse-DNS namespace of the domain proven (HTTP: that exact domain; DNS: it and
 * its subdomains), so a card's namespace belongs to the site when it names the site's host, a parent of it, or a
 * subdomain of it.
 */
export function namespaceFits(domain: string, host: string): boolean {
  return domain === host || host.endsWith(`.${domain}`) || domain.endsWith(`.${host}`);
}

export const mcpRegistry = defineCheck({
  id: "mcp.registry",
  title: "The MCP server's registry name belongs to the site's domain",
  requests: "`GET /.well-known/mcp-registry-auth`; the server card `mcp.card` found",
  passes:
    "a registry proof, when served, reads `v=MCPv1; k=ed25519; p=<base64 key>` (or `k=ecdsap384`) with a key of the right size, at the domain itself (the registry follows no redirect); the server card's name is in the site's reverse-DNS namespace (or its parent's, or a subdomain's), or in a GitHub one (`io.github.*`, noted); another domain's namespace `fail`s; on an IP address only a served proof is judged (an address has no namespace)",
  category: "capabilities",
  severity: "low",
  maturity: "draft",
  profiles: ["agent"],
  remediation:
    "Name the MCP server in the reverse-DNS namespace of the domain that serves it (example.com → com.example/<server>), and if you prove the domain over HTTP, serve exactly `v=MCPv1; k=ed25519; p=<base64 public key>` at /.well-known/mcp-registry-auth without a redirect.",
  prompt:
    'Make our MCP server\'s registry identity match our domain: set the "name" of our server card and server.json to "<our domain reversed>/<server>" (for example com.example/weather), and serve /.well-known/mcp-registry-auth as text/plain with one line `v=MCPv1; k=ed25519; p=<base64 of the 32-byte Ed25519 public key>` (generated with mcp-publisher), answering 200 directly, without redirects.',
  specUrls: [AUTHENTICATION, "https://github.com/modelcontextprotocol/registry/tree/main/docs/reference/server-json"],
  async run(context) {
    const host = context.target.root.hostname.replace(/^\[|\]$/g, "");
    // Namespaces are domains reversed: an address has none to compare a card's name with. A proof it publishes is
    // still judged, whatever the host: a malformed key is broken wherever it is served.
    const address = isIP(host) !== 0;
    const [proof, cards] = await Promise.all([
      fetchDocument(context, pathUrl(context, "/.well-known/mcp-registry-auth"), "text/plain"),
      loadMcpCards(context),
    ]);
    // Only a current card's name is a registry name; a legacy card's is judged (as outdated) by mcp.card alone.
    const card = foundCards(cards).find((found) => found.shape === "v1");
    const name = address || card === undefined ? null : cardIdentity(card.card).name;
    const proofAbsent = absence(proof, "MCP registry proof");
    if (proofAbsent !== null && address)
      return notApplicable(`${proofAbsent}, and ${host} is an IP address, which has no registry namespace to prove`);
    if (proofAbsent !== null && name === null)
      return notApplicable(`${proofAbsent}, and no current server card names the server (see mcp.card)`);
    const verdict = new Verdict();
    if (proofAbsent === null) {
      const { response } = proof;
      if (proof.state !== "found") verdict.must(`${REGISTRY_HTTP_AUTH}/http.go`, describeState(proof, "the proof"));
      else {
        if (response.redirects.length > 0)
          verdict.must(
            `${REGISTRY_HTTP_AUTH}/http.go`,
            `the proof is reached through a redirect to ${response.url}, and the registry follows none`,
          );
        const problem = proofProblem(response.text.trim());
        if (problem !== null) verdict.must(`${REGISTRY_HTTP_AUTH}/common.go`, problem);
      }
    }
    // A current card's name always has a namespace (McpCardV1Schema), so its domain is there to compare.
    const domain = name === null ? null : namespaceDomain(name);
    if (name !== null && domain !== null) {
      if (name.startsWith("io.github."))
        verdict.hint(AUTHENTICATION, `"${name}" is a GitHub namespace, proven by a GitHub login, not by this domain`);
      else if (!namespaceFits(domain, host))
        verdict.must(
          `${AUTHENTICATION} (domain-based names MUST be the reverse-DNS form of the domain)`,
          `the card names "${name}", the namespace of ${domain}, which ${host} cannot prove`,
        );
    }
    const proofNote = proofAbsent === null ? "a well-formed registry proof" : "no HTTP proof (DNS may prove it)";
    const named = address
      ? `${host} is an IP address, so no card name is matched with it`
      : name === null
        ? "no current card to match"
        : `"${name}" ${name.startsWith("io.github.") ? "is a GitHub namespace" : `fits ${host}`}`;
    return verdict.outcome(`${named}; ${proofNote}`);
  },
});
