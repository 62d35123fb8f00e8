import { createRequire } from "node:module";
import type Stripe from "stripe";

let loaded: typeof Stripe | undefined;

/**
 * The payment provider's SDK, loaded on first use. Without STRIPE_SECRET_KEY nothing needs it, and
 * its ~220 modules were a sixth of every server start and staff command (0.5 s of CPU each).
 * `require` keeps the gateway's construction synchronous; the package's CommonJS entry is the same
 * SDK as its ES module one.
 */
export function stripeSdk(): typeof Stripe {
  loaded ??= createRequire(import.meta.url)("stripe") as typeof Stripe;
  return loaded;
}
