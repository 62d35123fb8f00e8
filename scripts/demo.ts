// `npm run demo`: the whole service with working payments in one command, against the repository's
// fake payment provider (test/fakes/stripe: the same fake the tests drive through the real SDK).
// It starts the fake, builds the site, starts the server pointed at the fake, and stops both on Ctrl-C.
import { ConfigError, loadConfig } from "../api/config.ts";
import { startFakeStripe } from "../test/fakes/stripe/fake-server.ts";
import { buildThenServe } from "./lib/build-then-serve.ts";

const WEBHOOK_SECRET = "whsec_demo";

let siteUrl: string;
try {
  const config = loadConfig();
  if (config.env === "production")
    throw new ConfigError("npm run demo points payments at a fake: unset NODE_ENV=production");
  siteUrl = config.siteUrl;
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

// The checker may reach this server itself, so the form at /checks can check the demo (a loopback
// address is otherwise refused: DESIGN §5); any targets already allowed stay allowed.
const ownTarget = new URL(siteUrl).host;
const fake = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET, deliverTo: `${siteUrl}/api/v1/webhooks/stripe` });
console.log(
  [
    `Demo: payments go to a fake provider at ${fake.url} (test mode: nothing is charged, no card is asked for).`,
    `Buy at ${siteUrl}/store: the buy button opens the fake's checkout page, Pay brings you back to the download.`,
    `The fake's controls (refund, expire, make calls fail): ${siteUrl}/docs/operations/configuration#payments-locally`,
    `Checks may reach this server itself (CHECKS_ALLOWED_TARGETS=${ownTarget}): check it from ${siteUrl}/checks.`,
    "",
  ].join("\n"),
);

const allowed = [process.env.CHECKS_ALLOWED_TARGETS, ownTarget].filter(Boolean).join(",");

const server = await buildThenServe({
  ...process.env,
  CHECKS_ALLOWED_TARGETS: allowed,
  STRIPE_SECRET_KEY: "sk_test_demo",
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_BASE: fake.url,
});
if (!server) {
  await fake.close();
  process.exit(1);
}
// Ctrl-C reaches the server too (same process group); SIGTERM to this process alone is passed on.
const stop = () => server.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
server.once("exit", async (code) => {
  await fake.close();
  process.exit(code ?? 0);
});
