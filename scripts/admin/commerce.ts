import { createLogger } from "../../api/platform/log.ts";
import { builtUrlMismatch, readBuiltUrls } from "../../api/site/built-for.ts";
import { composeCommerce } from "../../api/wiring/compose.ts";
import { getContent } from "../../src/content/load-content.ts";
import { type AdminContext, AdminError } from "./context.ts";

/**
 * Payments, the store and the mail outbox over the CLI's database, built exactly as the server
 * builds them. The links in e-mails rendered here use the configured SITE_URL, so it must be the
 * one the build (and so the server, which refuses any other) was made for.
 */
export async function commerceServices({ config, client, secrets, lookupKeys }: AdminContext) {
  const wrongUrl = builtUrlMismatch(await readBuiltUrls(config.distDir), config, "this command");
  if (wrongUrl) throw new AdminError(wrongUrl);
  return composeCommerce({
    config,
    content: getContent(config.root),
    db: () => client,
    now: () => new Date(),
    secrets: await secrets(),
    keys: await lookupKeys(),
    log: createLogger("warn"),
  });
}
