import { describe, expect, it } from "vitest";
import { renderMarkdown, renderMarkdownPage } from "../../src/lib/markdown.ts";

const PAGE = `Intro.

| Field | Severity |
|---|---|
| a | high |

## Limits and quotas

| Name | Value |
|---|---|
| rate | 10 |

| Name | Value |
|---|---|
| burst | 2 |

### Per token

\`\`\`sh
curl -s "$BASE/api/v1/config"
\`\`\`

#### A detail
`;

describe("rendering a doc page's Markdown", () => {
  it("lists the page's sections and subsections, in order, with the ids their headings carry", () => {
    const { html, headings } = renderMarkdownPage(PAGE);
    expect(headings).toEqual([
      { depth: 2, id: "limits-and-quotas", text: "Limits and quotas" },
      { depth: 3, id: "per-token", text: "Per token" },
    ]);
    for (const heading of headings) expect(html).toContain(`id="${heading.id}"`);
    expect(html).toContain('<h4 id="a-detail">');
  });

  it("puts each table in a focusable region named after its section, so it scrolls instead of breaking words", () => {
    const html = renderMarkdown(PAGE);
    const regions = [
      ...html.matchAll(/<div class="table-scroll" role="region" tabindex="0" aria-label="([^"]+)"><table>/g),
    ];
    expect(regions.map((match) => match[1])).toEqual([
      "Table",
      "Table: Limits and quotas",
      "Table: Limits and quotas (2)",
    ]);
    expect(html.match(/<table>/g)).toHaveLength(3);
  });

  it("makes a code block focusable, so a keyboard can scroll a long line", () => {
    expect(renderMarkdown(PAGE)).toContain('<pre tabindex="0"><code class="language-sh">');
  });

  it("still drops raw HTML written in the Markdown", () => {
    expect(renderMarkdown('Hi <script>alert(1)</script> <b onclick="x">there</b>')).not.toMatch(/<script|<b|onclick/);
  });
});
