import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getContent } from "../../../src/content/load-content.ts";
import { formatBytes } from "../../../src/lib/format-bytes.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { siteUrl } from "../../helpers/site.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const content = getContent(process.cwd());
const published = content.products.filter((product) => product.data.published);
const get = async (path: string, headers: Record<string, string> = {}) => t.app.request(path, { headers });
const html = async (path: string) => {
  const response = await get(path);
  expect(response.status, path).toBe(200);
  return response.text();
};
/** The page's HTML without Astro's style-scoping attributes, with the entities it escapes turned back. */
const decoded = (text: string) =>
  text
    .replace(/ data-astro-cid-\w+/g, "")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&quot;/g, '"');

describe("a page for every product", () => {
  it.each(published.map((product) => [product.id, product] as const))(
    "/store/%s says what the buyer gets before paying",
    async (id, product) => {
      const page = decoded(await html(`/store/${id}`));
      expect(page).toContain(`<h1>${product.data.title}</h1>`);
      for (const line of product.data.contents ?? []) expect(page).toContain(`<li>${line}</li>`);
      if (product.download) {
        expect(page).toContain(product.data.format ?? "no format");
        expect(page).toContain(formatBytes(product.download.bytes));
      }
      expect(page).toContain('href="/policies/refunds"');
      if (product.data.on_sale) expect(page).toContain(`action="/store/buy/${id}"`);
      else expect(page).not.toContain(`action="/store/buy/${id}"`);
    },
  );

  it("shows a preview that is the file's own lines", async () => {
    const kit = published.find((product) => product.id === "discovery-starter-kit");
    const sample = kit?.download?.sample;
    if (!sample) throw new Error("the starter kit has no sample");
    const file = readFileSync(join(content.privateFilesDir, "discovery-starter-kit.json"), "utf8").split("\n");
    expect(sample.text).toBe(file.slice(sample.firstLine - 1, sample.lastLine).join("\n"));
    const page = decoded(await html("/store/discovery-starter-kit"));
    expect(page).toContain(`Lines ${sample.firstLine} to ${sample.lastLine} of the file`);
    expect(page).toContain(sample.text.split("\n")[1]);
  });

  it("has no page for an unpublished product", async () => {
    expect(content.products.some((product) => product.id === "team-workshop" && !product.data.published)).toBe(true);
    expect((await get("/store/team-workshop")).status).toBe(404);
  });

  it("links each store card to its page, and the product list's url is that page", async () => {
    const store = await html("/store");
    const listing = (await (await get("/api/v1/products")).json()) as { data: { id: string; url: string }[] };
    for (const product of published) {
      expect(store).toContain(`href="/store/${product.id}"`);
      expect(listing.data.find((item) => item.id === product.id)?.url).toBe(`${siteUrl()}/store/${product.id}`);
    }
  });

  it("lists every product page in the sitemap and its Markdown in llms.txt", async () => {
    const sitemap = await (await get("/sitemap.xml")).text();
    const llms = await (await get("/llms.txt")).text();
    for (const product of published) {
      expect(sitemap).toContain(`<loc>${siteUrl()}/store/${product.id}</loc>`);
      expect(llms).toContain(`- [${product.data.title}](${siteUrl()}/store/${product.id}.md): `);
    }
  });

  it("answers a product page in Markdown to an agent that asks for it, with the same facts", async () => {
    const response = await get("/store/agent-readiness-checklist", { accept: "text/markdown" });
    expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(response.headers.get("vary")).toContain("Accept");
    const markdown = await response.text();
    expect(markdown).toContain("# Agent-readiness checklist");
    expect(markdown).toContain("- **Format**: Markdown, one file");
    expect(markdown).toContain("## Preview");
    expect(markdown).toContain(`POST ${siteUrl()}/api/v1/store/agent-readiness-checklist/checkout`);
    expect(await (await get("/store/agent-readiness-checklist.md")).text()).toBe(markdown);
  });
});

describe("the discovery starter kit is what its page says", () => {
  it("lists exactly the files the JSON file ships, and calls itself one JSON file", () => {
    const kit = published.find((product) => product.id === "discovery-starter-kit");
    const shipped: unknown = JSON.parse(
      readFileSync(join(content.privateFilesDir, kit?.data.file ?? "missing"), "utf8"),
    );
    const files =
      typeof shipped === "object" && shipped !== null && "files" in shipped && Array.isArray(shipped.files)
        ? shipped.files.map((file: { path?: string }) => String(file.path))
        : [];
    const promised = (kit?.data.contents ?? []).flatMap((line) => /^(\/\S+):/.exec(line)?.[1] ?? []);
    expect(promised).toEqual(files.filter((path) => path.startsWith("/.") || /^\/[a-z]/.test(path)));
    expect(files).toHaveLength(promised.length + 1);
    expect(kit?.data.description).toMatch(/^One JSON file/);
    expect(kit?.data.file_type).toBe("application/json");
  });
});
