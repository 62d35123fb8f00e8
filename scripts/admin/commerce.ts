import { createLogger } from "../../api/platform/log.ts";
import { loadSecretRing } from "../../api/platform/secret-ring.ts";
import { builtUrlMismatch, readBuiltUrls } from "../../api/site/built-for.ts";
import { type CommerceServices, createCommerceServices } from "../../api/store/services.ts";
import { getContent } from "../../src/content/load-content.ts";
import { type AdminContext, AdminError } from "./context.ts";

/**
 * The store, payments and mail services over the CLI's database, as the server builds them. The
 * links in e-mails rendered here use the configured SITE_URL, so it must be the one the build (and
 * so the server, which refuses any other) was made for.
 */
export async function commerceServices({ config, client, database }: AdminContext): Promise<CommerceServices> {
  const wrongUrl = builtUrlMismatch(await readBuiltUrls(config.distDir), config, "this command");
  if (wrongUrl) throw new AdminError(wrongUrl);
  const secrets = await loadSecretRing(database, config);
  return createCommerceServices({
    config,
    content: getContent(config.root),
    db: () => client,
    now: () => new Date(),
    secrets,
    log: createLogger("warn"),
  });
}
