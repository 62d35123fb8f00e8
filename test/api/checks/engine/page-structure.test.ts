import { afterEach, describe, expect, it } from "vitest";
import type { FixtureSite } from "../../../fixtures/sites/serve.ts";
import { json, page, startStaticSite } from "../../../fixtures/sites/static-site.ts";
import { checkSite, messageOf, statusOf } from "./_helpers.ts";

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

async function checkHome(body: string) {
  site = await startStaticSite({ "/": page(body) });
  return checkSite(site);
}

describe("the page-structure checks", () => {
  it("pass a page with one h1, nested headings, landmarks and described images", async () => {
    const result = await checkHome(`<header><nav aria-label="Main"><a href="/">Home</a></nav></header>
<main><h1>Widgets</h1><h2>Sizes</h2><h3>Small</h3><h2>Prices</h2>
<img src="/widget.png" alt="A blue widget on a desk"><img src="/rule.svg" alt="">
<svg role="img"><title>Sales chart</title><path d="M0 0"/></svg></main>
<footer><p>Widget Co.</p></footer>`);
    expect(statusOf(result, "page.headings")).toBe("pass");
    expect(messageOf(result, "page.headings")).toBe('4 headings from "Widgets", no level skipped');
    expect(statusOf(result, "page.semantic")).toBe("pass");
    expect(messageOf(result, "page.semantic")).toBe("one main landmark, with header, nav, footer");
    expect(statusOf(result, "page.img-alt")).toBe("pass");
    expect(messageOf(result, "page.img-alt")).toBe("3 image(s), each with a text alternative (1 marked decorative)");
  });

  it("fail a skipped heading level, two visible mains and images without alt, naming each", async () => {
    const result = await checkHome(`<main><h1>Widgets</h1><h3>Small ones</h3></main>
<main><img src="/team.jpg"><svg role="img"><path d="M0 0"/></svg><img src="/logo.png" alt="Widget Co."></main>
<main hidden><p>An inactive tab.</p></main>`);
    expect(statusOf(result, "page.headings")).toBe("fail");
    expect(messageOf(result, "page.headings")).toMatch(/MUST .*h1 → h3 at "Small ones"/);
    expect(statusOf(result, "page.semantic")).toBe("fail");
    expect(messageOf(result, "page.semantic")).toMatch(/^2 visible main landmarks .*MUST NOT/);
    expect(statusOf(result, "page.img-alt")).toBe("fail");
    expect(messageOf(result, "page.img-alt")).toMatch(
      /^2 of 3 image\(s\) without a text alternative .*<img src="\/team\.jpg"> has no alt attribute; an <svg role="img"> has no title/,
    );
  });

  it("warn when a page of divs has no main and no h1, and leave image alt n/a without images", async () => {
    const result = await checkHome(`<div class="header"><a href="/">Home</a></div>
<div class="content"><h2>Widgets</h2><p>We make widgets.</p></div>`);
    expect(statusOf(result, "page.headings")).toBe("warn");
    expect(messageOf(result, "page.headings")).toMatch(/no h1 .*SHOULD/);
    expect(statusOf(result, "page.semantic")).toBe("warn");
    expect(messageOf(result, "page.semantic")).toMatch(/^no <main>/);
    expect(statusOf(result, "page.img-alt")).toBe("n/a");
  });

  it("ignore headings and images that only exist in scripts, templates and comments", async () => {
    const result = await checkHome(`<main><h1>Widgets</h1><h2>Sizes</h2>
<!-- <h4>old section</h4><img src="/old.png"> -->
<template><h5>Row</h5><img src="/row.png"></template>
<script>document.body.insertAdjacentHTML("beforeend", "<h6>late</h6><img src='/late.png'>");</script></main>`);
    expect(statusOf(result, "page.headings")).toBe("pass");
    expect(statusOf(result, "page.img-alt")).toBe("n/a");
  });

  it("accept an image without alt only where HTML allows it: captioned in a figure", async () => {
    const result = await checkHome(`<main><h1>Photos</h1>
<figure><img src="/upload-1.jpg"><figcaption>Photo 1 sent by a reader</figcaption></figure></main>`);
    expect(statusOf(result, "page.img-alt")).toBe("pass");
  });

  it("are n/a when the homepage is not an HTML page", async () => {
    site = await startStaticSite({ "/": json({ service: "widgets", docs: "/docs" }) });
    const result = await checkSite(site);
    for (const id of ["page.headings", "page.semantic", "page.img-alt"]) expect(statusOf(result, id)).toBe("n/a");
  });
});
