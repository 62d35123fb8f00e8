import { defineCheck, fail, isSecureOrLocal, listProblems, notApplicable, pass } from "../../check-types.ts";
import { loadAgentsJson } from "../../documents/agent-docs.ts";
import { absence, describeState } from "../../documents/document.ts";
import { ACCEPT_OPENAPI, findOpenApi, parseOpenApiBody } from "../../documents/openapi.ts";
import { openApiSchemaDefects } from "../../openapi/schema-defects.ts";
import { lintOpenApi, operationsOf } from "../../openapi-lint.ts";
import { describeIssues, isRecord } from "../../parse/json.ts";
import { isSuccess } from "../../parse/media-type.ts";
import { WildCardAgentsJsonSchema } from "../../remote/agents-json.ts";
import { Verdict } from "../../verdict.ts";

const OPENAPI_SPEC = "https://spec.openapis.org/oas/v3.1.1.html";
const OAS_FORMAT = "OpenAPI 3.1 §4.3";

export const openApiFound = defineCheck({
  id: "openapi.found",
  requests: "`Link` header, API catalog, `llms.txt`, common paths",
  passes:
    "an OpenAPI document is reachable; one that is advertised but does not parse is still found (and fails `openapi.valid`), never reported as missing",
  title: "An OpenAPI 3.x description is discoverable",
  category: "capabilities",
  severity: "high",
  maturity: "standard",
  profiles: ["api"],
  remediation:
    'Publish the API\'s OpenAPI 3.x description and point at it with Link rel="service-desc" on / and from the api-catalog.',
  prompt:
    'Publish our OpenAPI 3.1 description at /openapi.json (Content-Type application/vnd.oai.openapi+json) and advertise it with `Link: </openapi.json>; rel="service-desc"` on the homepage and a service-desc entry in /.well-known/api-catalog.',
  specUrls: [OPENAPI_SPEC, "https://www.rfc-editor.org/rfc/rfc8631", "https://www.rfc-editor.org/rfc/rfc9727"],
  async run(context) {
    const discovery = await findOpenApi(context);
    if (discovery.document !== null) {
      const where = `${new URL(discovery.document.response.url).pathname}, found via ${discovery.source ?? "a common path"}`;
      return pass(
        discovery.spec === null
          ? `an OpenAPI document at ${where}; it is not a readable description (see openapi.valid)`
          : `OpenAPI ${String(discovery.spec.openapi ?? discovery.spec.swagger)} at ${where}`,
      );
    }
    const tried = discovery.attempts.map(
      (attempt) =>
        `${new URL(attempt.url).pathname} ${attempt.state === "fallback" ? "fallback page" : attempt.response.status}`,
    );
    return fail(`no OpenAPI description found (tried ${listProblems(tried, 4)})`);
  },
});

export const openApiValid = defineCheck({
  id: "openapi.valid",
  requests: "the OpenAPI document",
  passes:
    "it validates against the official schema of its version, each defect listed (a path without `/`, a response without a description, an unknown type); unique operation ids, declared security schemes, no broken `$ref` (MUSTs); operation ids, summaries, `servers` and error responses are noted",
  title: "The OpenAPI description validates and is complete enough for agents",
  category: "capabilities",
  severity: "high",
  maturity: "standard",
  profiles: ["api"],
  remediation:
    "Make the OpenAPI 3.x description validate against the OpenAPI schema (paths start with /, every response has a description, every type is a JSON Schema type), give every operation a unique operationId and a summary, document error responses (ideally problem+json), declare absolute https servers and every security scheme used, and resolve every local $ref.",
  prompt:
    "Fix our OpenAPI description: validate it against the official OpenAPI schema for its version (e.g. with @seriousme/openapi-schema-validator) and fix every error it lists; give every operation a unique operationId and a summary, document at least one 4xx response per operation (application/problem+json), declare absolute https `servers`, declare every security scheme used under components.securitySchemes, and resolve every local $ref.",
  specUrls: [OPENAPI_SPEC, "https://spec.openapis.org/oas/v3.0.3.html"],
  async run(context) {
    const { document, spec, unreadable } = await findOpenApi(context);
    if (document === null) return notApplicable("no OpenAPI description (see openapi.found)");
    const verdict = new Verdict();
    const path = new URL(document.response.url).pathname;
    if (spec === null)
      return verdict
        .must(OAS_FORMAT, `${path} is not a readable OpenAPI description: ${unreadable ?? "?"}`)
        .outcome("");
    for (const defect of await openApiSchemaDefects(spec))
      verdict.must(`OpenAPI ${String(spec.openapi ?? spec.swagger)} schema`, defect);
    const operations = lintOpenApi(spec, (url) => isSecureOrLocal(context, url), verdict);
    return verdict.outcome(
      `${path} validates against the OpenAPI ${String(spec.openapi ?? spec.swagger)} schema; ${operations} operation(s) with unique operationIds, declared security and no broken $ref`,
    );
  },
});

export const agentsJson = defineCheck({
  id: "agents-json",
  requests: "`/.well-known/agents.json`, `/agents.json`",
  passes: "the format is detected and valid",
  title: "agents.json (if published) is valid and points at real operations",
  category: "capabilities",
  severity: "info",
  maturity: "draft",
  profiles: ["api"],
  remediation:
    "If you publish agents.json, follow one schema family (wild-card agents.json: agentsJson, info, sources, flows) and reference only OpenAPI documents and operationIds that exist.",
  prompt:
    "Validate our agents.json against the wild-card-ai agents.json schema: agentsJson version, info{title,version,description}, sources[{id,path}] pointing at our live OpenAPI, and flows whose actions use operationIds that exist in it.",
  specUrls: ["https://github.com/wild-card-ai/agents-json"],
  async run(context) {
    const document = await loadAgentsJson(context);
    const absent = absence(document, "agents.json, which is optional");
    if (absent !== null) return notApplicable(absent);
    if (document.state !== "found" || document.json === null) return fail(describeState(document, "agents.json"));
    if (!document.json.ok || !isRecord(document.json.value)) return fail("agents.json is not a JSON object");
    if (!("agentsJson" in document.json.value))
      return pass("agents.json found (not the wild-card schema family; not validated further)");
    const parsed = WildCardAgentsJsonSchema.safeParse(document.json.value);
    if (!parsed.success) return fail(`agents.json: ${describeIssues(parsed.error)}`);
    const problems: string[] = [];
    for (const source of parsed.data.sources.slice(0, 2)) {
      const url = new URL(source.path, document.response.url).href;
      const response = await context.trail.get(url, { accept: ACCEPT_OPENAPI });
      const spec = isSuccess(response) ? parseOpenApiBody(response.text) : null;
      if (spec === null) {
        problems.push(`source ${source.id} (${source.path}) is not a reachable OpenAPI document`);
        continue;
      }
      const ids = new Set(operationsOf(spec).map((entry) => entry.operation.operationId));
      const unknown = parsed.data.flows
        .flatMap((flow) => flow.actions)
        .filter((action) => action.sourceId === source.id && !ids.has(action.operationId));
      if (unknown.length > 0)
        problems.push(`operationId(s) not in ${source.id}: ${unknown.map((action) => action.operationId).join(", ")}`);
    }
    return problems.length > 0
      ? fail(listProblems(problems))
      : pass(`wild-card agents.json with ${parsed.data.flows.length} flow(s), all operations exist`);
  },
});

export const openApiChecks = [openApiFound, openApiValid, agentsJson];
