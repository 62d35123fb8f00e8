import { existsSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { PageServices } from "../../src/lib/page-services.ts";

/** @astrojs/node's middleware-mode handler: renders the pages built with `prerender = false`. */
export type AstroHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: Error) => void,
  locals: { services: PageServices },
) => Promise<void>;

/** The build's on-demand page handler, or `null` when the build has none. */
export async function loadAstroHandler(distDir: string): Promise<AstroHandler | null> {
  const entry = join(distDir, "server", "entry.mjs");
  if (!existsSync(entry)) return null;
  const module = (await import(pathToFileURL(entry).href)) as { handler?: AstroHandler };
  return module.handler ?? null;
}
