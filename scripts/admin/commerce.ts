import { composeCommerce } from "../../api/compose.ts";
import { createLogger } from "../../api/platform/log.ts";
import { loadSecretRing } from "../../api/platform/secret-ring.ts";
import { getContent } from "../../src/content/load-content.ts";
import type { AdminContext } from "./context.ts";

/** Payments, the store and the mail outbox over the CLI's database, built exactly as the server builds them. */
export async function commerceServices({ config, client }: AdminContext) {
  const secrets = await loadSecretRing(client, config);
  return composeCommerce({
    config,
    content: getContent(config.root),
    db: () => client,
    now: () => new Date(),
    secrets,
    log: createLogger("warn"),
  });
}
