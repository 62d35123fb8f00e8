import { getContent } from "../../src/content/load-content.ts";
import { ensureServerSecret } from "../../api/db/settings.ts";
import { createLogger } from "../../api/log.ts";
import { createCommerceServices, type CommerceServices } from "../../api/services/store.ts";
import type { AdminContext } from "./context.ts";

/** The store, payments and mail services over the CLI's database, as the server builds them. */
export async function commerceServices({ config, client }: AdminContext): Promise<CommerceServices> {
  const serverSecret = await ensureServerSecret(client, config.serverSecret);
  return createCommerceServices({ config, content: getContent(config.root), db: () => client, now: () => new Date(), serverSecret, log: createLogger("warn") });
}
