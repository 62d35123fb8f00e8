import { createLogger } from "../../api/platform/log.ts";
import { loadSecretRing } from "../../api/platform/secret-ring.ts";
import { type CommerceServices, createCommerceServices } from "../../api/store/services.ts";
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
