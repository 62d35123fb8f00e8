import { defineCheck, fail, isSecureOrLocal, listProblems, notApplicable, pass, warn } from "../check-types.ts";
import { loadAgentsJson } from "../documents/agent-docs.ts";
import { absence, describeState } from "../documents/document.ts";
import { ACCEPT_OPENAPI, findOpenApi, parseOpenApiBody } from "../documents/openapi.ts";
import { lintOpenApi, operationsOf } from "../openapi-lint.ts";
import { describeIssues, isRecord } from "../parse/json.ts";
import { isSuccess } from "../parse/media-type.ts";
import { WildCardAgentsJsonSchema } from "../remote/agents-json.ts";

const OPENAPI_SPEC = "https://spec.openapis.org/oas/v3.1.1.html";

export const openApiFound = defineCheck({
  id: "openapi.found",
  title: "An OpenAPI 3.x description is discoverable",
  category: "capabilities",
  severity: "high",
  profiles: ["api"],
  remediation:
    'Publish the API\'s OpenAPI 3.x description and point at it with Link rel="service-desc" on / and from the api-catalog.',
  prompt:
    'Publish our OpenAPI 3.1 description at /openapi.json (Content-Type application/vnd.oai.openapi+json) and advertise it with `Link: </openapi.json>; rel="service-desc"` on the homepage and a service-desc entry in /.well-known/api-catalog.',
  specUrls: [OPENAPI_SPEC, "https://www.rfc-editor.org/rfc/rfc8631", "https://www.rfc-editor.org/rfc/rfc9727"],
  async run(context) {
    const discovery = await findOpenApi(context);
    if (discovery.spec !== null && discovery.document !== null) {
      return pass(
        `OpenAPI ${String(discovery.spec.openapi ?? discovery.spec.swagger)} at ${new URL(discovery.document.response.url).pathname}, found via ${discovery.source ?? "a common path"}`,
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
  title: "The OpenAPI description is complete enough for agents",
  category: "capabilities",
  severity: "high",
  profiles: ["api"],
  remediation:
    "Use OpenAPI 3.x with info, absolute https servers, a unique operationId and summary per operation, declared securitySchemes, documented 4xx/5xx responses (ideally problem+json) and no broken $ref.",
  prompt:
    "Fix our OpenAPI description: give every operation a unique operationId and a summary, document at least one 4xx response per operation (application/problem+json), declare absolute https `servers`, declare every security scheme used under components.securitySchemes, and resolve every local $ref.",
  specUrls: [OPENAPI_SPEC],
  async run(context) {
    const { spec } = await findOpenApi(context);
    if (spec === null) return notApplicable("no OpenAPI description (see openapi.found)");
    const lint = lintOpenApi(spec, (url) => isSecureOrLocal(context, url));
    if (lint.errors.length > 0) return fail(listProblems(lint.errors));
    if (lint.cautions.length > 0) return warn(listProblems(lint.cautions));
    return pass(
      `${lint.operations} operation(s), all with operationIds and error responses; servers absolute; no broken $ref`,
    );
  },
});

export const agentsJson = defineCheck({
  id: "agents-json",
  title: "agents.json (if published) is valid and points at real operations",
  category: "capabilities",
  severity: "info",
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
