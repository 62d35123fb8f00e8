import { setTimeout as sleep } from "node:timers/promises";
import { defineCommand } from "citty";
import { type GrantFilter, listGrants, revokeGrants } from "../../api/oauth/staff.ts";
import { STANDING_FRESH_MS } from "../../api/platform/auth/standing-epoch.ts";
import { AdminError, printRows, withDatabase } from "./context.ts";
import { say } from "./terminal.ts";

const nowSeconds = () => Math.floor(Date.now() / 1000);

const filterArgs = {
  client: {
    type: "string",
    description: "A client's id: dcr_… (registered itself) or its metadata document's https URL",
  },
  agent: { type: "string", description: "An agent registration's id (ag_…)" },
  grant: { type: "string", description: "One grant's id" },
} as const;

function filterOf(args: { client?: string; agent?: string; grant?: string }): GrantFilter {
  return {
    ...(args.client ? { clientId: args.client } : {}),
    ...(args.agent ? { agentId: args.agent } : {}),
    ...(args.grant ? { grantId: args.grant } : {}),
  };
}

export const oauthCommand = defineCommand({
  meta: {
    name: "oauth",
    description: "The grants MCP clients hold after a person allowed them on the consent page: list and revoke them.",
  },
  subCommands: {
    grants: defineCommand({
      meta: {
        name: "grants",
        description: "Grants, newest first: client, registration, scopes, live tokens (never a token).",
      },
      args: { ...filterArgs, json: { type: "boolean", description: "Print JSON" } },
      run: ({ args }) =>
        withDatabase(async ({ client }) =>
          printRows(await listGrants(client, filterOf(args), nowSeconds()), args.json === true),
        ),
    }),
    revoke: defineCommand({
      meta: {
        name: "revoke",
        description:
          "Revoke every grant of a client (--client), of a registration (--agent), or one (--grant); once this returns, every instance answers 401 to their tokens, and the client must ask a person again.",
      },
      args: filterArgs,
      run: ({ args }) =>
        withDatabase(async ({ client }) => {
          const filter = filterOf(args);
          if (Object.keys(filter).length === 0)
            throw new AdminError("Say which grants: --client <id>, --agent <id> or --grant <id>");
          const revoked = await revokeGrants(client, filter, nowSeconds());
          if (revoked.grants === 0 && revoked.tokens === 0) throw new AdminError("No grant matches");
          // Every instance reads the standing epoch within this long, so it refuses from its next request.
          await sleep(STANDING_FRESH_MS + 10);
          say(
            `Revoked ${revoked.grants} grant(s) and ${revoked.tokens} token(s) and code(s): every instance answers 401 to them from now on.`,
          );
        }),
    }),
  },
});
