import { setTimeout as sleep } from "node:timers/promises";
import { defineCommand } from "citty";
import { AgentService, type IssuedToken } from "../../api/agents/service.ts";
import { findAgent, listAgents, listTokens, revokeToken, setTrust } from "../../api/agents/sql.ts";
import { STANDING_FRESH_MS } from "../../api/platform/auth/standing-epoch.ts";
import { TRUST_LEVELS, type Trust } from "../../api/platform/auth/token-owner.ts";
import { AGENT_SCOPES } from "../../src/lib/registry.ts";
import { AdminError, printRows, withDatabase } from "./context.ts";
import { say } from "./terminal.ts";

/**
 * Returns once every running instance has read the standing epoch the change just moved: an instance
 * uses a reading for at most STANDING_FRESH_MS after it began (api/platform/auth/standing-epoch.ts),
 * so after that long each of them refuses a revoked token or suspended agent from its next request.
 */
const everyInstanceHasSeen = () => sleep(STANDING_FRESH_MS + 10);

function parseScopes(value: string): string[] {
  const scopes = value
    .split(",")
    .map((scope) => scope.trim())
    .filter(Boolean);
  const unknown = scopes.filter((scope) => !AGENT_SCOPES.includes(scope));
  if (unknown.length > 0)
    throw new AdminError(`Unknown scope(s) ${unknown.join(", ")}; scopes: ${AGENT_SCOPES.join(", ")}`);
  return scopes;
}

export const tokensCommand = defineCommand({
  meta: {
    name: "tokens",
    description: "Issue, list and revoke agent access tokens. Tokens are shown once, when issued.",
  },
  subCommands: {
    issue: defineCommand({
      meta: {
        name: "issue",
        description: "Issue a token to an existing agent (--agent) or to a new registration (--name).",
      },
      args: {
        agent: { type: "string", description: "An existing agent id (ag_…)" },
        name: { type: "string", description: "Register a new agent with this name" },
        type: { type: "string", description: "The new agent's type", default: "agent" },
        operator: { type: "string", description: "individual, company or organisation", default: "company" },
        scopes: {
          type: "string",
          description: `Comma-separated scopes (${AGENT_SCOPES.join(", ")})`,
          default: "waitlist:write,survey:write",
        },
        label: { type: "string", description: "A note to tell tokens apart" },
      },
      run: ({ args }) =>
        withDatabase(async ({ client }) => {
          const scopes = parseScopes(args.scopes);
          const service = new AgentService({ db: () => client, now: () => new Date() });
          let issued: IssuedToken & { agentId: string };
          if (args.agent) {
            if (!(await findAgent(client, args.agent))) throw new AdminError(`No agent ${args.agent}`);
            issued = { agentId: args.agent, ...(await service.issueToken(args.agent, scopes, args.label ?? null)) };
          } else if (args.name) {
            const operator = args.operator as "individual" | "company" | "organisation";
            if (!["individual", "company", "organisation"].includes(operator))
              throw new AdminError("--operator must be individual, company or organisation");
            const registered = await service.register(
              { agent_name: args.name, agent_type: args.type, operator_type: operator },
              "staff",
              scopes,
            );
            issued = { agentId: registered.agent.id, ...registered };
          } else {
            throw new AdminError("Say which agent: --agent <id>, or --name <name> to register a new one");
          }
          say(
            `Agent:  ${issued.agentId}\nToken:  ${issued.token}\nId:     ${issued.tokenId}\nScopes: ${issued.scopes.join(", ")}\n\nThe token is shown this once; it is stored only as a hash.`,
          );
        }),
    }),
    list: defineCommand({
      meta: {
        name: "list",
        description: "Tokens with their id, last four characters, scopes and dates (never the secret).",
      },
      args: {
        agent: { type: "string", description: "Only this agent's tokens" },
        json: { type: "boolean", description: "Print JSON" },
      },
      run: ({ args }) =>
        withDatabase(async ({ client }) =>
          printRows(
            (await listTokens(client, args.agent)).map((token) => ({ ...token, hint: `…${token.hint}` })),
            args.json === true,
          ),
        ),
    }),
    revoke: defineCommand({
      meta: {
        name: "revoke",
        description:
          "Revoke a token by its id (tok_…); once this returns, every instance answers 401 to it from the next request.",
      },
      args: { id: { type: "positional", description: "The token id", required: true } },
      run: ({ args }) =>
        withDatabase(async ({ client }) => {
          if (!(await revokeToken(client, args.id, new Date().toISOString())))
            throw new AdminError(`No active token ${args.id}`);
          await everyInstanceHasSeen();
          say(`Revoked ${args.id}: every instance answers 401 to it from now on.`);
        }),
    }),
  },
});

export const agentsCommand = defineCommand({
  meta: { name: "agents", description: "List agent registrations and set their trust." },
  subCommands: {
    list: defineCommand({
      meta: { name: "list", description: "The most recent registrations." },
      args: {
        limit: { type: "string", description: "How many", default: "50" },
        json: { type: "boolean", description: "Print JSON" },
      },
      run: ({ args }) =>
        withDatabase(async ({ client }) => printRows(await listAgents(client, Number(args.limit)), args.json === true)),
    }),
  },
});

export const trustCommand = defineCommand({
  meta: {
    name: "trust",
    description: `Set an agent's trust: ${TRUST_LEVELS.join(", ")}. Once this returns, every instance answers 401 to a suspended agent's tokens.`,
  },
  subCommands: {
    set: defineCommand({
      meta: { name: "set", description: "Set the trust of one agent." },
      args: {
        agent: { type: "positional", description: "The agent id (ag_…)", required: true },
        level: { type: "positional", description: TRUST_LEVELS.join(" | "), required: true },
      },
      run: ({ args }) =>
        withDatabase(async ({ client }) => {
          if (!TRUST_LEVELS.includes(args.level as Trust))
            throw new AdminError(`Trust must be one of ${TRUST_LEVELS.join(", ")}`);
          if (!(await setTrust(client, args.agent, args.level as Trust)))
            throw new AdminError(`No agent ${args.agent}`);
          await everyInstanceHasSeen();
          say(`${args.agent} is now ${args.level} on every instance.`);
        }),
    }),
  },
});
