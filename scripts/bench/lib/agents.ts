import { AgentService } from "../../../api/agents/service.ts";
import { loadConfig } from "../../../api/config.ts";
import { Database } from "../../../api/db/database.ts";
import { migrate } from "../../../api/db/migrate.ts";

/** Registers `count` agents straight into the database (so a load run measures only its own requests) and returns their tokens. */
export async function seedAgents(databaseUrl: string, count: number): Promise<string[]> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, NODE_ENV: "test" });
  const database = new Database(config.database);
  await database.configure();
  await migrate(database.client);
  const agents = new AgentService({ db: () => database.client, now: () => new Date() });
  const tokens: string[] = [];
  for (let index = 0; index < count; index++) {
    tokens.push(
      (
        await agents.register(
          { agent_name: `Bench agent ${index}`, agent_type: "benchmark", operator_type: "company" },
          "staff",
        )
      ).token,
    );
  }
  database.close();
  return tokens;
}
