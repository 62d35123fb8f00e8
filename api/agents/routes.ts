import type { H3 } from "h3";
import { AgentRegistrationSchema } from "../../src/schemas/requests/agent-registration.ts";
import { AgentWaitlistEntrySchema } from "../../src/schemas/requests/agent-waitlist-entry.ts";
import { authenticateAgent } from "../platform/auth/bearer.ts";
import { requireAvailable } from "../platform/availability.ts";
import { readJson } from "../platform/body.ts";
import { clientAddress } from "../platform/http/client.ts";
import { onGet } from "../platform/http/get-route.ts";
import { completeResponse, jsonResponse } from "../platform/http/responses.ts";
import { enforceRateLimit, rememberLimits } from "../platform/limits/enforce.ts";
import type { RouteDeps } from "../platform/route-deps.ts";

export function registerAgentRoutes(app: H3, { config, services }: RouteDeps): void {
  const { agents, limiter, monitor, content } = services;
  const auth = { db: () => services.database.client, limiter, cache: services.tokenOwners };
  const service = content.service;

  app.post("/api/v1/agents/register", async (event) => {
    await requireAvailable("registerAgent", monitor, service);
    const address = clientAddress(event, config.trustProxy);
    const limits = rememberLimits(event, await enforceRateLimit(limiter, "agent-register", address));
    const input = await readJson(event, AgentRegistrationSchema, { limitBytes: config.bodyLimitBytes });
    const { agent, token, scopes } = await agents.register(input, "api");
    return jsonResponse(
      event,
      { agent_id: agent.id, token, token_type: "Bearer", scopes, trust: agent.trust, created_at: agent.created_at },
      { status: 201, headers: limits },
    );
  });

  app.post("/api/v1/agents/waitlist", async (event) => {
    await requireAvailable("joinAgentWaitlist", monitor, service);
    const owner = await authenticateAgent(event, auth, clientAddress(event, config.trustProxy), "waitlist:write");
    const limits = rememberLimits(event, await enforceRateLimit(limiter, "agent-writes", owner.tokenId));
    const entry = await readJson(event, AgentWaitlistEntrySchema, { limitBytes: config.bodyLimitBytes });
    const joined = await agents.joinWaitlist(owner, entry);
    return jsonResponse(event, { status: "received", ...joined }, { status: 201, headers: limits });
  });

  app.post("/api/v1/agents/survey", async (event) => {
    await requireAvailable("answerAgentSurvey", monitor, service);
    const owner = await authenticateAgent(event, auth, clientAddress(event, config.trustProxy), "survey:write");
    const limits = rememberLimits(event, await enforceRateLimit(limiter, "agent-writes", owner.tokenId));
    const body = await readJson(event, services.surveySchema, { limitBytes: config.bodyLimitBytes });
    const answered = await agents.answerSurvey(owner, body.survey_version, body.answers);
    return jsonResponse(
      event,
      { status: "received", survey_version: body.survey_version, ...answered },
      { status: 201, headers: limits },
    );
  });

  onGet(app, "/api/v1/agents/me", async (event) => {
    await requireAvailable("getAgentStanding", monitor, service);
    const owner = await authenticateAgent(event, auth, clientAddress(event, config.trustProxy), null);
    return completeResponse(event, agents.standingJson(owner), { status: 200, type: "application/json" });
  });
}
