import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContent } from "../../src/content/load-content.ts";
import { docNeighbours, sortDocs } from "../../src/lib/sidebar.ts";

const { content } = loadContent({ root: join(import.meta.dirname, "..", "..") });
const docs = content?.docs ?? [];

describe("previous and next pages", () => {
  it("follow the sidebar's reading order from the first page to the last", () => {
    const order = sortDocs(docs).map((doc) => doc.path);
    expect(order.length).toBeGreaterThan(10);
    const walked: string[] = [];
    let path: string | undefined = order[0];
    while (path !== undefined) {
      walked.push(path);
      path = docNeighbours(docs, path).next?.path;
    }
    expect(walked).toEqual(order);
    expect(docNeighbours(docs, order[0] ?? "").previous).toBeUndefined();
    expect(docNeighbours(docs, order[1] ?? "").previous?.path).toBe(order[0]);
  });

  it("are absent for a path that is not a published page", () => {
    expect(docNeighbours(docs, "no/such/page")).toEqual({});
  });
});
