import { documentSecurityHeaders } from "../../../src/lib/manifest.ts";
import type { Config } from "../../config.ts";

/** This server's headers for HTML documents: the hosted checkout's origin follows STRIPE_API_BASE when set. */
export function documentHeadersFor(config: Pick<Config, "stripe">): [string, string][] {
  const extra = config.stripe.apiBase ? [new URL(config.stripe.apiBase).origin] : [];
  return Object.entries(documentSecurityHeaders(extra));
}
