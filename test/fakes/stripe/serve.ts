// A fake payment provider for local work: `node test/fakes/stripe/serve.ts`, then run
// the service with STRIPE_API_BASE=http://127.0.0.1:12111 STRIPE_SECRET_KEY=sk_test_local
// STRIPE_WEBHOOK_SECRET=whsec_local. Checkout pages are served at /pay/<session id>; events go to
// WEBHOOK_URL (default: the service's webhook on 127.0.0.1:4321).
import { startFakeStripe } from "./fake-server.ts";

const port = Number(process.env.FAKE_STRIPE_PORT ?? "12111");
const webhookSecret = process.env.STRIPE_WEBHOOK_SECRET ?? "whsec_local";
const deliverTo = process.env.WEBHOOK_URL ?? "http://127.0.0.1:4321/api/v1/webhooks/stripe";
const fake = await startFakeStripe({ port, webhookSecret, deliverTo });
console.log(`Fake Stripe on ${fake.url}; events go to ${deliverTo} signed with ${webhookSecret}`);
console.log(
  `Test controls: POST ${fake.url}/_test/sessions/<id>/{pay,pay-async,async-succeed,async-fail,expire,refund,dispute}, POST ${fake.url}/_test/fail-next?count=N&mode=error|hang`,
);

const stop = () => void fake.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
