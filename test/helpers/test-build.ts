import { inject } from "vitest";
import type { BuiltSite } from "../_global-setup.ts";

/**
 * The build this test worker owns (the global setup makes one per worker, each for its own port): a file that
 * serves it on that port never meets another file doing the same at the same time.
 */
export function testBuild(): BuiltSite {
  const sites = inject("sites");
  const worker = Number(process.env.VITEST_POOL_ID ?? "1");
  const site = sites[(worker - 1) % sites.length];
  if (!site) throw new Error("The global setup provided no build.");
  return site;
}
