// Applies the database migrations not yet applied: `npm run db:migrate`.
import { loadConfig } from "../api/config.ts";
import { Database } from "../api/db/database.ts";
import { migrate, schemaVersion } from "../api/db/migrate.ts";
import { loadLookupKeys } from "../api/platform/credentials/lookup-keys.ts";
import { loadSecretRing } from "../api/platform/secret-ring.ts";
import { rewriteLegacyCredentials } from "../api/wiring/credential-rewrite.ts";

const config = loadConfig();
const database = new Database(config.database);
try {
  await database.configure();
  const applied = await migrate(database.client);
  console.log(applied.length > 0 ? `Applied migrations ${applied.join(", ")}.` : "Nothing to apply.");
  // Migration 0005's second step (api/wiring/credential-rewrite.ts): stored credentials become keyed hashes.
  const rewritten = await rewriteLegacyCredentials(database.client, async () =>
    loadLookupKeys(database.client, await loadSecretRing(database, config)),
  );
  if (rewritten.orders + rewritten.reports > 0)
    console.log(
      `Replaced the checkout session ids of ${rewritten.orders} orders and the ids of ${rewritten.reports} reports by their keyed hashes.`,
    );
  console.log(`Schema version ${await schemaVersion(database.client)} at ${config.database.url}.`);
} finally {
  database.close();
}
