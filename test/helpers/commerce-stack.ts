import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeStripe, startFakeStripe } from "../fakes/stripe/fake-server.ts";
import { type RunningServer, startServer } from "./server-process.ts";
import { type SmtpSink, startSmtpSink } from "./smtp.ts";
import { testBuild } from "./test-build.ts";

export interface CommerceStack {
  server: RunningServer;
  fake: FakeStripe;
  smtp: SmtpSink;
  /** A temp directory holding the database; removed by `stop`. */
  dir: string;
  stop: () => Promise<void>;
}

/**
 * The real server process with payments and mail: the fake Stripe (delivering signed webhooks to
 * the server) and an SMTP sink, over a fresh database file. `env` adds or overrides settings.
 */
export async function startCommerceStack(name: string, env: Record<string, string> = {}): Promise<CommerceStack> {
  const webhookSecret = `whsec_${name}`;
  const dir = await mkdtemp(join(tmpdir(), `${name}-`));
  const smtp = await startSmtpSink();
  const fake = await startFakeStripe({ webhookSecret, deliverTo: `${testBuild().siteUrl}/api/v1/webhooks/stripe` });
  const server = await startServer({
    DATABASE_URL: `file:${join(dir, "service.db")}`,
    STRIPE_SECRET_KEY: `sk_test_${name}`,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_BASE: fake.url,
    SMTP_URL: smtp.url,
    ...env,
  });
  return {
    server,
    fake,
    smtp,
    dir,
    stop: async () => {
      await server.stop();
      await fake.close();
      await smtp.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
