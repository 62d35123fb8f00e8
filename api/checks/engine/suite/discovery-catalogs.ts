import { type CheckContext, defineCheck, fail, listProblems, pass, warn } from "../check-types.ts";
import { type LoadedAiCatalog, loadAiCatalogs, loadApiCatalog } from "../documents/catalogs.ts";
import { describeState, targetAnswers } from "../documents/document.ts";
import { sampleBlocker, sampleTargets } from "../documents/sampling.ts";
import { jsonEqual } from "../parse/json.ts";
import { parseLinkHeader } from "../parse/link-header.ts";
import {
  describeAnswer,
  isJsonMediaType,
  mediaTypeEssence,
  mediaTypeOf,
  mediaTypeParameters,
} from "../parse/media-type.ts";
import { entryMediaType } from "../remote/ai-catalog.ts";

const RFC9727_PROFILE = "https://www.rfc-editor.org/info/rfc9727";
const MAX_TARGETS = 8;

/** Resolves targets and compares a declared `type` with the served Content-Type (RFC 9727 §4.1); returns problems. */
async function verifyTargets(
  context: CheckContext,
  targets: ReadonlyArray<{ url: string; type: string | null; label: string }>,
): Promise<{ problems: string[]; note: string }> {
  const sample = await sampleTargets(context, targets, {
    url: (target) => target.url,
    limit: MAX_TARGETS,
    accept: (target) => target.type ?? "*/*",
  });
  const problems: string[] = [];
  for (const { target, response } of sample.answered) {
    if (!targetAnswers(context, response)) {
      problems.push(`${target.label} ${new URL(target.url).pathname} → ${describeAnswer(response)}`);
      continue;
    }
    const served = mediaTypeOf(response);
    if (target.type !== null && mediaTypeEssence(target.type) !== served) {
      context.trail.note(response, `declared ${target.type}, served ${served || "no Content-Type"}`);
      problems.push(
        `${target.label} ${new URL(target.url).pathname} declares ${mediaTypeEssence(target.type)} but is served as ${served || "nothing"}`,
      );
    }
  }
  const blocker = problems.length === 0 ? sampleBlocker(sample) : null;
  if (blocker !== null) throw blocker;
  const total = new Set(targets.map((target) => target.url)).size;
  return {
    problems,
    note: sample.answered.length < total ? ` (checked ${sample.answered.length} of ${total} targets)` : "",
  };
}

export const apiCatalog = defineCheck({
  id: "catalog.api",
  title: "An RFC 9727 api-catalog lists the APIs",
  category: "discovery",
  severity: "high",
  profiles: ["api"],
  remediation:
    'Serve /.well-known/api-catalog as application/linkset+json (profile="https://www.rfc-editor.org/info/rfc9727") with absolute anchors, service-desc/service-doc links that resolve, and declared types that match what is served.',
  prompt:
    'Publish /.well-known/api-catalog as RFC 9727 Linkset JSON: Content-Type application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"; one context object per API with an absolute anchor and service-desc (OpenAPI), service-doc and status links whose `type` equals the Content-Type each target is served with. HEAD must return Link: <…>; rel="api-catalog".',
  specUrls: ["https://www.rfc-editor.org/rfc/rfc9727", "https://www.rfc-editor.org/rfc/rfc9264"],
  async run(context) {
    const { document, linkset } = await loadApiCatalog(context);
    if (document.state !== "found") return fail(describeState(document, "/.well-known/api-catalog"));
    if (document.json?.ok !== true || linkset === null)
      return fail(`the api-catalog is not JSON${document.json?.ok === false ? `: ${document.json.error}` : ""}`);
    const errors = [...linkset.issues];
    const cautions: string[] = [];
    const contentType = document.response.headers["content-type"] ?? "";
    const essence = mediaTypeEssence(contentType);
    if (essence === "application/json")
      cautions.push("served as application/json; RFC 9727 requires application/linkset+json");
    else if (essence !== "application/linkset+json")
      errors.push(`served as ${essence || "no Content-Type"}, not application/linkset+json`);
    else if (mediaTypeParameters(contentType).profile !== RFC9727_PROFILE)
      cautions.push(`no profile="${RFC9727_PROFILE}" parameter`);
    if (linkset.contexts.length === 0) errors.push("the linkset is empty");
    const relations = linkset.contexts.flatMap((entry) => entry.relations);
    if (!relations.some((relation) => relation.rel === "item" || relation.rel === "service-desc"))
      errors.push("no `item` or `service-desc` link");
    const targets = relations.flatMap((relation) =>
      relation.targets.map((target) => ({ url: target.resolved, type: target.type ?? null, label: relation.rel })),
    );
    const verified = await verifyTargets(context, targets);
    errors.push(...verified.problems);
    const head = await context.trail.request({
      method: "HEAD",
      url: document.response.url,
      headers: { accept: "application/linkset+json" },
    });
    if (!parseLinkHeader(head.headers.link, head.url).some((link) => link.rels.includes("api-catalog"))) {
      cautions.push('HEAD does not return Link: rel="api-catalog" (RFC 9727 §2)');
    }
    if (errors.length > 0) return fail(listProblems(errors));
    if (cautions.length > 0) return warn(listProblems(cautions));
    return pass(
      `${linkset.contexts.length} context(s), ${targets.length} link(s); targets resolve with their declared types${verified.note}`,
    );
  },
});

function catalogProblems(catalog: LoadedAiCatalog, name: string): string[] {
  const { document } = catalog;
  if (document.state !== "found") return [describeState(document, name)];
  const type = mediaTypeOf(document.response);
  const problems: string[] = [];
  if (!isJsonMediaType(type)) problems.push(`${name} is served as ${type || "no Content-Type"}`);
  problems.push(...catalog.issues.map((issue) => `${name}: ${issue}`));
  return problems;
}

export const aiCatalog = defineCheck({
  id: "catalog.ai",
  title: "An AI Catalog / ARD manifest lists the agent surfaces",
  category: "discovery",
  severity: "medium",
  profiles: ["api", "agent"],
  remediation:
    "Serve the same catalog at /.well-known/ard.json and /.well-known/ai-catalog.json: specVersion, host, and entries with urn:air: identifiers and exactly one of url or data, each url resolving with the declared type.",
  prompt:
    'Publish an AI Catalog (ARD v0.91) at /.well-known/ard.json and byte-identical at /.well-known/ai-catalog.json: {"specVersion":"1.0","host":{"displayName":…},"entries":[{"identifier":"urn:air:<host>:mcp:<name>","type":"application/mcp-server-card+json","url":"…/mcp/server-card","representativeQueries":[…2–5 examples]}]}. Every url must answer 200 with the declared type.',
  specUrls: ["https://github.com/Agent-Card/ai-catalog", "https://agenticresourcediscovery.io/spec/"],
  async run(context) {
    const catalogs = await loadAiCatalogs(context);
    const found = [catalogs.ard, catalogs.aiCatalog].filter((catalog) => catalog.document.state !== "missing");
    if (found.length === 0) return fail("neither /.well-known/ard.json nor /.well-known/ai-catalog.json exists");
    const errors = [
      ...catalogProblems(catalogs.ard, "ard.json"),
      ...catalogProblems(catalogs.aiCatalog, "ai-catalog.json"),
    ].filter((problem) => !problem.includes("is missing"));
    const cautions: string[] = [];
    if (catalogs.ard.document.state === "missing")
      cautions.push("no /.well-known/ard.json, which ARD v0.91 consumers fetch first");
    if (catalogs.aiCatalog.document.state === "missing")
      cautions.push("no /.well-known/ai-catalog.json for older consumers");
    const ardJson = catalogs.ard.document.json;
    const aiJson = catalogs.aiCatalog.document.json;
    if (ardJson?.ok === true && aiJson?.ok === true && !jsonEqual(ardJson.value, aiJson.value))
      errors.push("ard.json and ai-catalog.json disagree");
    const entries = catalogs.ard.catalog !== null ? catalogs.ard.entries : catalogs.aiCatalog.entries;
    const targets = entries.flatMap((entry) =>
      entry.resolvedUrl === null
        ? []
        : [{ url: entry.resolvedUrl, type: entryMediaType(entry) || null, label: entry.identifier }],
    );
    const verified = await verifyTargets(context, targets);
    errors.push(...verified.problems);
    const withoutQueries = catalogs.ard.entries.filter(
      (entry) => (entry.representativeQueries?.length ?? 0) < 2 || (entry.representativeQueries?.length ?? 0) > 5,
    );
    if (withoutQueries.length > 0)
      cautions.push(`${withoutQueries.length} ARD entr(ies) lack 2–5 representativeQueries`);
    if (errors.length > 0) return fail(listProblems(errors));
    if (cautions.length > 0) return warn(listProblems(cautions));
    return pass(
      `ard.json and ai-catalog.json agree; ${entries.length} entr(ies) resolving with their declared types${verified.note}`,
    );
  },
});

export const catalogChecks = [apiCatalog, aiCatalog];
