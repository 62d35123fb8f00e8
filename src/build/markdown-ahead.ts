import { Worker } from "node:worker_threads";
import type { Content } from "../content/model.ts";
import { RENDERED_AHEAD, type RenderedAhead, type RenderedMarkdown } from "../lib/markdown.ts";

export interface RenderingAhead {
  /** Stops the workers and forgets what they rendered; pages rendered later render their own. */
  close(): Promise<void>;
}

type Pending = PromiseWithResolvers<RenderedMarkdown>;

function pending(): Pending {
  const entry = Promise.withResolvers<RenderedMarkdown>();
  // A page that never asks for its body (the build failed first) must not become an unhandled rejection.
  entry.promise.catch(() => {});
  return entry;
}

/**
 * How many doc pages make a worker worth starting. It takes about a second to start (loading the
 * renderer on a core the bundler is using), which a small site pays in full: the 22-page sample
 * build took 10.9–11.5 s with it and 9.8–10.4 s without. The 2,000-page benchmark build
 * (`npm run bench -- build`, ≤ 40 s) saves 5 s of its render phase with it.
 */
export const RENDER_AHEAD_FROM_DOCS = 200;

/**
 * Renders every doc page's Markdown (current and archived versions) in worker threads while Astro
 * bundles and renders the pages, which take each result as it comes (`pageMarkdown`). Bodies go out
 * in the order Astro renders them, the archive's route before the docs', so the page being rendered
 * is rarely still waiting. A worker stops once it has sent its last page, and a page takes its
 * rendering only once, so neither stays in memory through the rest of the build (≤ 1 GB). If a
 * worker fails, the pages waiting on it fail the build with its error.
 */
export function renderDocsAhead(
  content: Content,
  workers = content.docs.length >= RENDER_AHEAD_FROM_DOCS ? 1 : 0,
): RenderingAhead {
  const bodies = [
    ...new Set([
      ...content.docs.flatMap((doc) => doc.archive.map((archived) => archived.body)),
      ...content.docs.map((doc) => doc.body),
    ]),
  ];
  const ahead = new Map<string, Promise<RenderedMarkdown>>();
  const started: Worker[] = [];
  for (let slot = 0; slot < workers; slot++) {
    const share = bodies.filter((_, index) => index % workers === slot);
    if (share.length === 0) continue;
    const waiting = share.map((body) => {
      const entry = pending();
      ahead.set(body, entry.promise);
      return entry;
    });
    const worker = new Worker(new URL("./markdown-worker.ts", import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: 128 },
    });
    worker.on("message", ({ index, rendered }: { index: number; rendered: RenderedMarkdown }) => {
      waiting[index]?.resolve(rendered);
      if (index === share.length - 1) void worker.terminate();
    });
    worker.on("error", (error) => {
      for (const entry of waiting) entry.reject(error);
    });
    // Exiting after its last page is the normal end (a settled promise ignores the rejection); an
    // exit before it, without an error event, must not leave the pages still waiting to hang the build.
    worker.on("exit", (code) => {
      const exited = new Error(`the Markdown worker exited (code ${code}) before rendering every doc page`);
      for (const entry of waiting) entry.reject(exited);
    });
    worker.postMessage(share);
    started.push(worker);
  }
  const global = globalThis as { [RENDERED_AHEAD]?: RenderedAhead };
  const handOver: RenderedAhead = {
    take(markdown) {
      const rendered = ahead.get(markdown);
      ahead.delete(markdown);
      return rendered;
    },
  };
  global[RENDERED_AHEAD] = handOver;
  return {
    async close() {
      if (global[RENDERED_AHEAD] === handOver) delete global[RENDERED_AHEAD];
      ahead.clear();
      await Promise.all(started.map((worker) => worker.terminate()));
    },
  };
}
