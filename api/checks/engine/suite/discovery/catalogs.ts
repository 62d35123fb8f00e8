import { type CheckContext, defineCheck, fail } from "../../check-types.ts";
import { type LoadedAiCatalog, loadAiCatalogs, loadApiCatalog } from "../../documents/catalogs.ts";
import { describeState, targetAnswers } from "../../documents/document.ts";
import { sampleBlocker, sampleTargets } from "../../documents/sampling.ts";
import type { ScanResponse } from "../../fetch/fetcher.ts";
import { isSiteFault } from "../../fetch/scan-fetch-error.ts";
import { jsonEqual } from "../../parse/json.ts";
import { parseLinkHeader } from "../../parse/link-header.ts";
import {
  describeAnswer,
  isJsonMediaType,
  mediaTypeEssence,
  mediaTypeOf,
  mediaTypeParameters,
} from "../../parse/media-type.ts";
import { AIR_URN_PATTERN, entryMediaType } from "../../remote/ai-catalog.ts";
import { Verdict } from "../../verdict.ts";

const RFC9727_PROFILE = "https://www.rfc-editor.org/info/rfc9727";
const MAX_TARGETS = 8;

interface CatalogTarget {
  url: string;
  type: string | null;
  label: string;
  /** An API endpoint (RFC 9727 `item`): its root may well answer 401, 404 or 405; only silence or a 5xx is dead. */
  endpoint: boolean;
  /** The clause that makes this link's target matter. */
  source: string;
  /** How much a served Content-Type other than `type` matters, and where that is written. */
  typeRule: { keyword: "SHOULD" | "HINT"; source: string };
}

/** RFC 8288 §3.4.1: a link's `type` is a hint about what the target will be. */
const LINK_TYPE_HINT = { keyword: "HINT", source: "RFC 8288 §3.4.1" } as const;

/** An API's base URL is alive when its server answers at all: APIs rarely serve anything at their root. */
function endpointAnswers(response: ScanResponse): boolean {
  return response.status < 500;
}

/**
 * Resolves a sample of the targets: a dead document link breaks a MUST; a declared `type` that differs from the served
 * Content-Type weighs what its spec says (a hint for links, a SHOULD for AI Catalog entries), and never fails.
 */
async function verifyTargets(
  context: CheckContext,
  targets: readonly CatalogTarget[],
  verdict: Verdict,
): Promise<string> {
  const sample = await sampleTargets(context, targets, {
    url: (target) => target.url,
    limit: MAX_TARGETS,
    accept: (target) => target.type ?? "*/*",
  });
  for (const { target, response } of sample.answered) {
    const path = new URL(target.url).pathname;
    if (target.endpoint ? !endpointAnswers(response) : !targetAnswers(context, response)) {
      verdict.must(target.source, `${target.label} ${path} → ${describeAnswer(response)}`);
      continue;
    }
    const served = mediaTypeOf(response);
    if (!target.endpoint && target.type !== null && mediaTypeEssence(target.type) !== served) {
      context.trail.note(response, `declared ${target.type}, served ${served || "no Content-Type"}`);
      verdict.add(
        target.typeRule.keyword,
        target.typeRule.source,
        `${target.label} ${path} declares ${mediaTypeEssence(target.type)} but is served as ${served || "nothing"}`,
      );
    }
  }
  for (const { target, error } of sample.failures)
    if (isSiteFault(error))
      verdict.must(target.source, `${target.label} ${new URL(target.url).pathname}: ${error.message}`);
  const blocker = verdict.failing ? null : sampleBlocker(sample);
  if (blocker !== null) throw blocker;
  const total = new Set(targets.map((target) => target.url)).size;
  return sample.answered.length < total ? ` (checked ${sample.answered.length} of ${total} targets)` : "";
}

export const apiCatalog = defineCheck({
  id: "catalog.api",
  samples: true,
  requests: "`GET` and `HEAD /.well-known/api-catalog`, and up to 8 of its links",
  passes:
    "RFC 9727 by keyword: `application/linkset+json` (plain `application/json` fails too), non-empty, an `item` or `service-desc`, documents that resolve and APIs that answer (fail); the profile parameter, a `HEAD` Link and `linkset` as the sole member (warn); a `type` that differs from the served one is only a hint",
  title: "An RFC 9727 api-catalog lists the APIs",
  category: "discovery",
  severity: "high",
  maturity: "standard",
  profiles: ["api"],
  remediation:
    'Serve /.well-known/api-catalog as application/linkset+json (profile="https://www.rfc-editor.org/info/rfc9727") with absolute anchors, and service-desc/service-doc links that resolve, each with the type it is served as.',
  prompt:
    'Publish /.well-known/api-catalog as RFC 9727 Linkset JSON: Content-Type application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"; one context object per API with an absolute anchor and service-desc (OpenAPI), service-doc and status links whose `type` equals the Content-Type each target is served with. HEAD must return Link: <…>; rel="api-catalog".',
  specUrls: ["https://www.rfc-editor.org/rfc/rfc9727", "https://www.rfc-editor.org/rfc/rfc9264"],
  async run(context) {
    const { document, linkset } = await loadApiCatalog(context);
    if (document.state !== "found") return fail(describeState(document, "/.well-known/api-catalog"));
    const verdict = new Verdict();
    if (document.json?.ok !== true || linkset === null)
      return verdict
        .must(
          "RFC 9264 §4.2",
          `the api-catalog is not JSON${document.json?.ok === false ? `: ${document.json.error}` : ""}`,
        )
        .outcome("");
    for (const issue of linkset.issues) verdict.add(issue.keyword, issue.source, issue.problem);
    const contentType = document.response.headers["content-type"] ?? "";
    const essence = mediaTypeEssence(contentType);
    // RFC 9727 §4.2 makes the linkset media type a MUST: a client that asks for application/linkset+json may not read
    // an application/json body as a linkset, so a plain JSON catalog is a fail (a hold-out API site had only a warn).
    if (essence !== "application/linkset+json")
      verdict.must("RFC 9727 §4.2", `served as ${essence || "no Content-Type"}, not application/linkset+json`);
    else if (mediaTypeParameters(contentType).profile !== RFC9727_PROFILE)
      verdict.should("RFC 9727 §4.2", `no profile="${RFC9727_PROFILE}" parameter`);
    if (linkset.contexts.length === 0) verdict.must("RFC 9727 §4.1", "the linkset is empty");
    const relations = linkset.contexts.flatMap((entry) => entry.relations);
    if (!relations.some((relation) => relation.rel === "item" || relation.rel === "service-desc"))
      verdict.must("RFC 9727 §4.1", "no `item` or `service-desc` link to an API");
    const targets = relations.flatMap((relation) =>
      relation.targets.map((target) => ({
        url: target.resolved,
        type: target.type ?? null,
        label: relation.rel,
        endpoint: relation.rel === "item",
        source: "RFC 9727 §4.1",
        typeRule: LINK_TYPE_HINT,
      })),
    );
    const note = await verifyTargets(context, targets, verdict);
    const head = await context.trail.request({
      method: "HEAD",
      url: document.response.url,
      headers: { accept: "application/linkset+json" },
    });
    if (!parseLinkHeader(head.headers.link, head.url).some((link) => link.rels.includes("api-catalog")))
      verdict.should("RFC 9727 §2", 'HEAD does not return Link: rel="api-catalog"');
    return verdict.outcome(
      `${linkset.contexts.length} context(s), ${targets.length} link(s); the documents resolve and the APIs answer${note}`,
    );
  },
});

const AI_CATALOG = "AI Catalog spec";

function judgeCatalog(catalog: LoadedAiCatalog, name: string, verdict: Verdict): void {
  const { document } = catalog;
  if (document.state === "missing" || document.state === "fallback") return;
  if (document.state !== "found") {
    verdict.must(AI_CATALOG, describeState(document, name));
    return;
  }
  const type = mediaTypeOf(document.response);
  if (!isJsonMediaType(type)) verdict.must(AI_CATALOG, `${name} is served as ${type || "no Content-Type"}, not JSON`);
  for (const issue of catalog.issues) verdict.must(AI_CATALOG, `${name}: ${issue}`);
}

export const aiCatalog = defineCheck({
  id: "catalog.ai",
  samples: true,
  requests: "`/.well-known/ard.json`, `/.well-known/ai-catalog.json`, and their entries",
  passes:
    "a valid catalog (entries need an identifier, a display name, a media type and exactly one of `url` or `data`) whose entries resolve; a second path missing, disagreeing copies or a served type other than the entry's is `warn`",
  title: "An AI Catalog / ARD manifest lists the agent surfaces",
  category: "discovery",
  severity: "medium",
  maturity: "draft",
  profiles: ["api", "agent"],
  remediation:
    "Serve the same catalog at /.well-known/ard.json and /.well-known/ai-catalog.json: specVersion, host, and entries with urn:air: identifiers and exactly one of url or data, each url resolving.",
  prompt:
    'Publish an AI Catalog (ARD v0.91) at /.well-known/ard.json and byte-identical at /.well-known/ai-catalog.json: {"specVersion":"1.0","host":{"displayName":…},"entries":[{"identifier":"urn:air:<host>:mcp:<name>","type":"application/mcp-server-card+json","url":"…/mcp/server-card","representativeQueries":[…2–5 examples]}]}. Every url must answer 200 with the declared type.',
  specUrls: ["https://github.com/Agent-Card/ai-catalog", "https://agenticresourcediscovery.io/spec/"],
  async run(context) {
    const catalogs = await loadAiCatalogs(context);
    const found = [catalogs.ard, catalogs.aiCatalog].filter(
      (catalog) => catalog.document.state !== "missing" && catalog.document.state !== "fallback",
    );
    if (found.length === 0) {
      const fallback = catalogs.ard.document.state === "fallback" ? " (both answer the site's fallback page)" : "";
      return fail(`neither /.well-known/ard.json nor /.well-known/ai-catalog.json exists${fallback}`);
    }
    const verdict = new Verdict();
    judgeCatalog(catalogs.ard, "ard.json", verdict);
    judgeCatalog(catalogs.aiCatalog, "ai-catalog.json", verdict);
    if (!found.includes(catalogs.ard))
      verdict.should("ARD v0.91", "no /.well-known/ard.json, which ARD v0.91 consumers fetch first");
    if (!found.includes(catalogs.aiCatalog))
      verdict.should(AI_CATALOG, "no /.well-known/ai-catalog.json for older consumers");
    const ardJson = catalogs.ard.document.json;
    const aiJson = catalogs.aiCatalog.document.json;
    if (ardJson?.ok === true && aiJson?.ok === true && !jsonEqual(ardJson.value, aiJson.value))
      verdict.should("ARD v0.91", "ard.json and ai-catalog.json disagree, so consumers of each see another catalog");
    const entries = catalogs.ard.catalog !== null ? catalogs.ard.entries : catalogs.aiCatalog.entries;
    for (const entry of entries) {
      if (!/^[a-z][a-z0-9+.-]*:/i.test(entry.identifier))
        verdict.should(`${AI_CATALOG} §Catalog Entry`, `identifier "${entry.identifier}" is neither a URN nor a URI`);
      else if (!AIR_URN_PATTERN.test(entry.identifier))
        verdict.hint("ARD v0.91 / ADR 0015", `identifier ${entry.identifier} is not a domain-anchored urn:air: name`);
    }
    const targets = entries.flatMap((entry) =>
      entry.resolvedUrl === null
        ? []
        : [
            {
              url: entry.resolvedUrl,
              type: entryMediaType(entry) || null,
              label: entry.identifier,
              endpoint: false,
              source: AI_CATALOG,
              typeRule: { keyword: "SHOULD" as const, source: `${AI_CATALOG} §Catalog Entry` },
            },
          ],
    );
    const note = await verifyTargets(context, targets, verdict);
    const withoutQueries = catalogs.ard.entries.filter(
      (entry) => (entry.representativeQueries?.length ?? 0) < 2 || (entry.representativeQueries?.length ?? 0) > 5,
    );
    if (withoutQueries.length > 0)
      verdict.should("ARD v0.91", `${withoutQueries.length} ARD entr(ies) lack 2–5 representativeQueries`);
    return verdict.outcome(`${found.length} catalog(s), ${entries.length} entr(ies) that resolve${note}`);
  },
});

export const catalogChecks = [apiCatalog, aiCatalog];
