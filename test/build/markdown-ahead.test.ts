import { afterEach, describe, expect, it } from "vitest";
import { RENDER_AHEAD_FROM_DOCS, renderDocsAhead } from "../../src/build/markdown-ahead.ts";
import { getContent } from "../../src/content/load-content.ts";
import { pageMarkdown, renderMarkdownPage } from "../../src/lib/markdown.ts";

const content = getContent();
const bodies = content.docs.flatMap((doc) => [doc.body, ...doc.archive.map((archived) => archived.body)]);
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe("rendering the docs' Markdown ahead, in worker threads", () => {
  it("starts no worker for a site with fewer docs than make one worth its start-up, which renders on the page", async () => {
    expect(content.docs.length).toBeLessThan(RENDER_AHEAD_FROM_DOCS);
    close = renderDocsAhead(content).close;
    const [body] = bodies;
    if (body === undefined) throw new Error("no docs");
    expect(pageMarkdown(body)).not.toBeInstanceOf(Promise);
  });

  it("gives every doc page and archived version exactly what rendering it on the page would", async () => {
    close = renderDocsAhead(content, 2).close;
    expect(bodies.length).toBeGreaterThan(10);
    for (const body of bodies) {
      const ahead = pageMarkdown(body);
      expect(ahead).toBeInstanceOf(Promise);
      expect(await ahead).toEqual(renderMarkdownPage(body));
    }
  });

  it("hands each rendering over once, so none stays in memory; a page asking again renders its own", async () => {
    close = renderDocsAhead(content, 1).close;
    const [body] = bodies;
    if (body === undefined) throw new Error("no docs");
    await pageMarkdown(body);
    const again = pageMarkdown(body);
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toEqual(renderMarkdownPage(body));
  });

  it("renders on the page itself Markdown it was not given, and everything once it is closed", async () => {
    const started = renderDocsAhead(content, 1);
    expect(pageMarkdown("## Not a doc\n\nText.")).toEqual(renderMarkdownPage("## Not a doc\n\nText."));
    await started.close();
    const [body] = bodies;
    if (body === undefined) throw new Error("no docs");
    expect(pageMarkdown(body)).not.toBeInstanceOf(Promise);
  });

  it("settles a page still waiting when its worker stops early, instead of leaving the build hanging", async () => {
    const started = renderDocsAhead(content, 1);
    const body = bodies.at(-1);
    if (body === undefined) throw new Error("no docs");
    const waiting = pageMarkdown(body);
    // Stopped before it has started up (loading the renderer takes far longer than this call).
    await started.close();
    const outcome = await Promise.race([
      Promise.resolve(waiting).then(
        () => "rendered",
        () => "failed",
      ),
      new Promise((resolve) => setTimeout(() => resolve("still waiting"), 5_000)),
    ]);
    expect(outcome).toBe("failed");
  });
});
