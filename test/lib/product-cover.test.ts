import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { COVER_SIZE, productCover } from "../../src/lib/product-cover.ts";

const cover = (title: string, id = "kit", categoryId = "guides") =>
  productCover({ id, title, categoryId, categoryTitle: "Guides & templates" });

/** The title's lines as drawn (the tspans), read back by an XML parser. */
function drawnLines(svg: string): string[] {
  const parsed = new XMLParser({ ignoreAttributes: false, htmlEntities: true }).parse(svg);
  const texts = parsed.svg.text as { tspan?: { "#text": string } | { "#text": string }[] }[];
  const tspans = texts.flatMap((text) => (text.tspan ? [text.tspan].flat() : []));
  return tspans.map((tspan) => String(tspan["#text"]));
}

describe("a product's cover, drawn at build time", () => {
  it("is a well-formed SVG of the cover size that names the product and its category, with nothing external", () => {
    const svg = cover("Discovery starter kit");
    expect(svg).toMatch(new RegExp(`^<svg [^>]*width="${COVER_SIZE.width}" height="${COVER_SIZE.height}"`));
    expect(svg).toContain("<title>Discovery starter kit</title>");
    expect(svg).toContain("GUIDES &#38; TEMPLATES");
    expect(svg).not.toMatch(/href=|<image|<script|url\((?!#)/);
    expect(drawnLines(svg).join(" ")).toBe("Discovery starter kit");
  });

  it("wraps a long title onto at most three lines that fit the width, and escapes markup in it", () => {
    const title = "A <very> long title about serving Markdown & discovery files to every kind of AI agent there is";
    const lines = drawnLines(cover(title));
    expect(lines.length).toBeLessThanOrEqual(3);
    expect(lines.join(" ")).toMatch(/^A <very> long title/);
    expect(cover(title)).not.toContain("<very>");
  });

  it("gives a category one colour and each product of it its own pattern", () => {
    const background = (svg: string) => svg.match(/<linearGradient[\s\S]*?<\/linearGradient>/)?.[0];
    const shapes = (svg: string) => svg.match(/<circle[^>]*>/g)?.join("");
    const first = cover("Kit", "kit-a");
    const second = cover("Kit", "kit-b");
    expect(background(first)).toBe(background(second));
    expect(shapes(first)).not.toBe(shapes(second));
    expect(background(cover("Kit", "kit-a", "services"))).not.toBe(background(first));
  });
});
