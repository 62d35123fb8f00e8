// Applies the database migrations not yet applied: `npm run db:migrate`.
import { loadConfig } from "../api/config.ts";
import { Database } from "../api/db/database.ts";
import { migrate, schemaVersion } from "../api/db/migrate.ts";

const config = loadConfig();
const database = new Database(config.database);
try {
  await database.configure();
  const applied = await migrate(database.client);
  console.log(applied.length > 0 ? `Applied migrations ${applied.join(", ")}.` : "Nothing to apply.");
  console.log(`Schema version ${await schemaVersion(database.client)} at ${config.database.url}.`);
} finally {
  database.close();
}
