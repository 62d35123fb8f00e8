import {
  type CheckContext,
  type CheckOutcome,
  defineCheck,
  fail,
  isSecureOrLocal,
  judge,
  listProblems,
  notApplicable,
} from "../../check-types.ts";
import { loadAuthorizationServerMetadata, loadProtectedResourceMetadata } from "../../documents/agent-docs.ts";
import { describeState, fetchDocument, pathUrl } from "../../documents/document.ts";
import type { ScanResponse } from "../../fetch/fetcher.ts";
import { isSiteFault, ScanFetchError } from "../../fetch/scan-fetch-error.ts";
import { describeIssues, isRecord } from "../../parse/json.ts";
import { bodyLooksLikeHtml, isSuccess } from "../../parse/media-type.ts";
import { type AgentAuth, AgentAuthSchema } from "../../remote/agent-auth.ts";
import { ProtectedResourceMetadataSchema } from "../../remote/auth.ts";

const AUTH_MD_DOCS = "https://workos.com/auth-md/docs/auth-md";
const AUTH_MD_PROTOCOL = "https://github.com/workos/auth.md/blob/main/AUTH.md";
const ACCEPT_AUTH_MD = "text/markdown, text/plain;q=0.9, */*;q=0.1";

type AgentAuthReading =
  | { state: "absent"; why: string }
  | { state: "invalid"; where: string; issues: string }
  | { state: "valid"; where: string; block: AgentAuth };

/** The authorization server the protected-resource metadata names (oauth.prm reads the same document). */
async function namedIssuer(context: CheckContext): Promise<string | null> {
  const resource = await loadProtectedResourceMetadata(context);
  const parsed = resource.json?.ok === true ? ProtectedResourceMetadataSchema.safeParse(resource.json.value) : null;
  return parsed?.success === true ? (parsed.data.authorization_servers?.[0] ?? null) : null;
}

/**
 * The machine-readable half of auth.md: the authorization-server metadata carries `agent_auth` (auth.md step 1b).
 * Without a protected-resource document naming the server, the origin's own metadata is read.
 */
async function readAgentAuth(context: CheckContext, issuer: string | null): Promise<AgentAuthReading> {
  const metadata = await loadAuthorizationServerMetadata(context, issuer ?? context.target.origin);
  const where = new URL(metadata.url).pathname;
  if (metadata.state !== "found" || metadata.json?.ok !== true || !isRecord(metadata.json.value))
    return { state: "absent", why: describeState(metadata, "the authorization-server metadata") };
  if (!("agent_auth" in metadata.json.value))
    return { state: "absent", why: `the authorization-server metadata (${where}) has no agent_auth block` };
  const block = AgentAuthSchema.safeParse(metadata.json.value.agent_auth);
  return block.success
    ? { state: "valid", where, block: block.data }
    : { state: "invalid", where, issues: describeIssues(block.error) };
}

const readable = (response: ScanResponse): boolean => isSuccess(response) && !bodyLooksLikeHtml(response.text);

type SkillReading = { document: ScanResponse | null; refused: string | null };

/** The document the agent_auth block names as its `skill`, when it lives somewhere other than /auth.md. */
async function readSkill(context: CheckContext, reading: AgentAuthReading): Promise<SkillReading> {
  const skill = reading.state === "valid" ? reading.block.skill : undefined;
  if (skill === undefined || !URL.canParse(skill) || new URL(skill).href === pathUrl(context, "/auth.md"))
    return { document: null, refused: null };
  try {
    const named = await context.trail.resolve(skill, { accept: ACCEPT_AUTH_MD });
    return { document: named.method === "GET" && readable(named) ? named : null, refused: null };
  } catch (error) {
    // The site's fault by the suite's one rule (isSiteFault), kept here only to say which link failed.
    if (error instanceof ScanFetchError && isSiteFault(error)) return { document: null, refused: error.message };
    throw error;
  }
}

function judgeBlock(context: CheckContext, reading: AgentAuthReading): { problems: string[]; cautions: string[] } {
  if (reading.state === "absent")
    return {
      problems: [],
      cautions: [`${reading.why}, so agents cannot discover register_uri as auth.md step 1 describes`],
    };
  if (reading.state === "invalid")
    return { problems: [`the agent_auth block in ${reading.where} is invalid: ${reading.issues}`], cautions: [] };
  const register = reading.block.register_uri;
  const secure = URL.canParse(register) && isSecureOrLocal(context, new URL(register));
  return { problems: secure ? [] : [`agent_auth.register_uri "${register}" is not an https URL`], cautions: [] };
}

function judgeDocument(text: string): string[] {
  const cautions: string[] = [];
  if (!/^#\s+\S/m.test(text)) cautions.push("auth.md has no title heading (# …)");
  if (!text.includes("oauth-protected-resource"))
    cautions.push("auth.md does not point agents at /.well-known/oauth-protected-resource, the authoritative metadata");
  return cautions;
}

export const authMd = defineCheck({
  id: "auth-md",
  title: "auth.md tells agents how to register, backed by agent_auth metadata",
  category: "capabilities",
  severity: "low",
  maturity: "draft",
  profiles: ["api"],
  remediation:
    "If agents may register for the service, publish /auth.md (a Markdown walkthrough: discover, register, claim, use) and an agent_auth block (register_uri, identity_types_supported) in the authorization-server metadata that /.well-known/oauth-protected-resource names.",
  prompt:
    "Publish /auth.md following WorkOS's auth.md format (title, discovery via /.well-known/oauth-protected-resource, registration, claim, use, errors) and add to our OAuth authorization-server metadata an agent_auth object with skill (the auth.md URL), an https register_uri and identity_types_supported. Publish neither unless agents can really register.",
  specUrls: [AUTH_MD_DOCS, AUTH_MD_PROTOCOL, "https://www.rfc-editor.org/rfc/rfc9728"],
  requests:
    "`GET /auth.md`; the authorization-server metadata only when auth.md exists or the protected-resource metadata names a server",
  passes:
    "auth.md with a title, pointing at `/.well-known/oauth-protected-resource`, and an `agent_auth` block with an https `register_uri` and `identity_types_supported`; a missing heading, pointer or block is `warn`; an invalid block, or a block without its auth.md, `fail`s; neither auth.md nor OAuth is `n/a`",
  async run(context): Promise<CheckOutcome> {
    const conventional = await fetchDocument(context, pathUrl(context, "/auth.md"), ACCEPT_AUTH_MD);
    const issuer = await namedIssuer(context);
    const found = conventional.state === "found" && readable(conventional.response) ? conventional.response : null;
    // No auth.md and no OAuth server to carry agent_auth: nothing to judge, and no request is spent looking.
    if (found === null && issuer === null)
      return notApplicable(`no auth.md (${describeState(conventional, "/auth.md")}) and no OAuth server named`);
    const reading = await readAgentAuth(context, issuer);
    const skill = found === null ? await readSkill(context, reading) : { document: found, refused: null };
    const document = skill.document;
    if (skill.refused !== null) return fail(`agent_auth.skill cannot be fetched: ${skill.refused}`);
    if (document === null) {
      if (reading.state === "absent")
        return notApplicable("no auth.md and no agent_auth block: only services that let agents register need one");
      return fail(`the agent_auth block in ${reading.where} advertises agent registration, but there is no auth.md`);
    }
    const path = new URL(document.url).pathname;
    const block = judgeBlock(context, reading);
    const cautions = [...judgeDocument(document.text), ...block.cautions];
    context.trail.note(document, `${path}: ${cautions.length === 0 ? "a titled walkthrough" : listProblems(cautions)}`);
    const methods = reading.state === "valid" ? reading.block.identity_types_supported.join(", ") : "";
    return judge({ problems: block.problems, cautions }, `${path} with agent_auth registration (${methods})`);
  },
});
