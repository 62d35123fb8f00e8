import { afterEach, describe, expect, it } from "vitest";
import type { FixtureSite } from "../../../fixtures/sites/serve.ts";
import { page, type StaticDocument, startStaticSite } from "../../../fixtures/sites/static-site.ts";
import { checkSite, messageOf, statusOf } from "./_helpers.ts";

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const script = (body: string): StaticDocument => ({ type: "text/javascript", body });

/** WebMCP is judged for sites that act (api, agent, commerce); the fixtures are checked as an API site. */
async function checkApp(documents: Record<string, StaticDocument>) {
  site = await startStaticSite(documents);
  return checkSite(site, { profile: ["api"] });
}

const SEARCH_FORM = `<form action="/search" toolname="search_widgets" tooldescription="Search the widget catalogue by keyword">
<label for="q">Keyword</label><input id="q" name="q" required>
<label>Colour <select name="colour"><option>blue</option></select></label>
<button type="submit">Search</button></form>`;

describe("webmcp.tools and webmcp.valid", () => {
  it("find declarative and script-registered tools and pass complete declarations", async () => {
    const result = await checkApp({
      "/": page(`<main><h1>Widgets</h1>${SEARCH_FORM}
<form action="/newsletter"><input name="email" aria-label="E-mail"></form>
<script type="module" src="/app.js"></script></main>`),
      "/app.js": script(`navigator.modelContext?.registerTool({
  name: "add_to_cart", description: "Add a widget to the cart",
  inputSchema: { type: "object", properties: { name: { type: "string" } } }, async execute() {} });`),
    });
    expect(statusOf(result, "webmcp.tools")).toBe("pass");
    expect(messageOf(result, "webmcp.tools")).toBe(
      '2 WebMCP tool(s): declarative form "search_widgets"; registerTool "add_to_cart" in /app.js; forms without tool annotations (informative): form 2 (action /newsletter)',
    );
    expect(statusOf(result, "webmcp.valid")).toBe("pass");
    expect(messageOf(result, "webmcp.valid")).toMatch(/^2 tool\(s\) with names and descriptions/);
  });

  it("fail a form tool without description, a required field without name, a bad or repeated name", async () => {
    const result = await checkApp({
      "/": page(`<form toolname="book_table"><input type="date" required><input name="guests"></form>
<script src="/app.js"></script>
<script>document.modelContext.registerTool({ name: "book_table", description: "Book", execute() {} })</script>`),
      "/app.js": script(
        `document.modelContext.registerTool({name:"book a table!",description:"Book a table",execute(){}});`,
      ),
    });
    expect(statusOf(result, "webmcp.valid")).toBe("fail");
    const message = messageOf(result, "webmcp.valid");
    expect(message).toContain('form "book_table" has toolname but no tooldescription');
    expect(message).toContain('form "book_table" field 1 (date) is required but has no name');
    expect(message).toContain('registerTool "book a table!" in /app.js: registerTool() rejects a name');
    expect(message).toContain("; and 1 more");
    // The fail does not hide the warning beside it.
    expect(message).toMatch(/; also: form "book_table" field "guests" has no label or toolparamdescription$/);
    expect(statusOf(result, "webmcp.tools")).toBe("pass");
  });

  it("warn about fields an agent cannot read, as Lighthouse's schema audit does", async () => {
    const result = await checkApp({
      "/": page(`<form toolname="subscribe" tooldescription="Subscribe to the newsletter">
<input name="email" type="email"><input type="text"></form>`),
    });
    expect(statusOf(result, "webmcp.valid")).toBe("warn");
    expect(messageOf(result, "webmcp.valid")).toBe(
      'form "subscribe" field "email" has no label or toolparamdescription; form "subscribe" field 2 (text) has no name, so agents cannot fill it',
    );
  });

  it("are n/a for a site with forms but no tools, which WebMCP leaves optional", async () => {
    const result = await checkApp({
      "/": page(`<main><h1>Contact</h1><form><input name="email" aria-label="E-mail"></form></main>`),
    });
    expect(statusOf(result, "webmcp.tools")).toBe("n/a");
    expect(messageOf(result, "webmcp.tools")).toBe(
      "no WebMCP tools (static inspection of the homepage's HTML; 1 form(s), none annotated); WebMCP is optional",
    );
    expect(statusOf(result, "webmcp.valid")).toBe("n/a");
  });

  it("read at most three of the site's own scripts and never another origin's", async () => {
    const scripts = ["/a.js", "/b.js", "/c.js", "/d.js"];
    const result = await checkApp({
      "/": page(
        `${scripts.map((src) => `<script src="${src}"></script>`).join("")}<script src="https://cdn.example.com/webmcp.js"></script>`,
      ),
      ...Object.fromEntries(scripts.map((src) => [src, script("console.log('no tools here')")])),
    });
    const fetched = site?.requests.filter((request) => request.path.endsWith(".js")).map((request) => request.path);
    expect(fetched).toEqual(["/a.js", "/b.js", "/c.js"]);
    expect(statusOf(result, "webmcp.tools")).toBe("n/a");
    expect(messageOf(result, "webmcp.tools")).toContain("and 3 same-origin script(s); 2 script(s) not read");
  });

  it("are not judged on a content site", async () => {
    site = await startStaticSite({ "/": page(SEARCH_FORM) });
    const result = await checkSite(site);
    expect(result.profile.applied).toEqual(["content"]);
    expect(statusOf(result, "webmcp.valid")).toBe("n/a");
  });
});
