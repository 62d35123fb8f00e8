import { loadSecretRing } from "../../api/db/settings.ts";
import { createLogger } from "../../api/log.ts";
import { type CommerceServices, createCommerceServices } from "../../api/services/store.ts";
import { getContent } from "../../src/content/load-content.ts";
import type { AdminContext } from "./context.ts";

/** The store, payments and mail services over the CLI's database, as the server builds them. */
export async function commerceServices({ config, client }: AdminContext): Promise<CommerceServices> {
  const secrets = await loadSecretRing(client, config);
  return createCommerceServices({
    config,
    content: getContent(config.root),
    db: () => client,
    now: () => new Date(),
    secrets,
    log: createLogger("warn"),
  });
}
