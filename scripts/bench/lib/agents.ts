import { AgentService } from "../../../api/agents/service.ts";
import { loadConfig } from "../../../api/config.ts";
import { Database } from "../../../api/db/database.ts";
import { migrate } from "../../../api/db/migrate.ts";

/**
 * Registers `count` agents straight into the database (so a load run measures only its own
 * requests) and returns their tokens; fifty at a time, which a libSQL server over HTTP needs
 * (one at a time, 12,000 took minutes).
 */
export async function seedAgents(databaseUrl: string, count: number): Promise<string[]> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, NODE_ENV: "test" });
  const database = new Database(config.database);
  await database.configure();
  await migrate(database.client);
  const agents = new AgentService({ db: () => database.client, now: () => new Date() });
  const tokens: string[] = [];
  for (let done = 0; done < count; done += 50) {
    const group = Array.from({ length: Math.min(50, count - done) }, (_, index) =>
      agents.register(
        { agent_name: `Bench agent ${done + index}`, agent_type: "benchmark", operator_type: "company" },
        "staff",
      ),
    );
    for (const registered of await Promise.all(group)) tokens.push(registered.token);
  }
  database.close();
  return tokens;
}

/** The body of an agent waiting-list entry every bench write sends (each with its own token). */
export const BENCH_AGENT_ENTRY = JSON.stringify({
  agent_name: "Bench",
  agent_type: "benchmark",
  operator_type: "company",
  use_cases: ["measure"],
  capabilities: ["read"],
  tools_used: ["wrk"],
  consent_version: "privacy-2026-11-01",
});
