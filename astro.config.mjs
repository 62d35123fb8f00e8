// @ts-check

import node from "@astrojs/node";
import { defineConfig } from "astro/config";

// Static output for everything that can be prerendered; the pages that need runtime data (forms,
// a readiness report, the checkout return page) opt out with `prerender = false` and are served by
// the h3 server through @astrojs/node in middleware mode (api/site/page-routes.ts).
// scripts/build.ts passes the real site and build context inline; these defaults serve `astro dev`.
const site = process.env.DOCS_URL ?? process.env.SITE_URL ?? "http://127.0.0.1:4321";

export default defineConfig({
  output: "static",
  adapter: node({ mode: "middleware" }),
  site,
  trailingSlash: "never",
  // Four pages rendered at once: one waits on its file write while another renders. With one at a
  // time the 2,000-page benchmark build (`npm run bench -- build`, ≤ 40 s) sat idle a fifth of its
  // render phase; with four, under a tenth.
  build: { format: "file", inlineStylesheets: "always", concurrency: 4 },
  compressHTML: true,
  devToolbar: { enabled: false },
  // Cross-site form posts are refused by the server (api/site/page-routes.ts), which knows the public
  // SITE_URL; Astro's own check compares with the Host header, which is wrong behind a proxy.
  security: { checkOrigin: false },
  vite: {
    logLevel: "warn",
    // Astro inlines a small <script> into the page; our CSP allows script files only (plus one hashed
    // theme script), so every script is written to `_astro/` as a file.
    build: { assetsInlineLimit: 0 },
    define: {
      __BUILD_CONTEXT__: JSON.stringify({
        contentRoot: process.cwd(),
        siteUrl: site,
        docsUrl: site,
        builtAt: new Date().toISOString(),
      }),
    },
  },
});
