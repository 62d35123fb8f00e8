import "./native-allocator.ts";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { build as astroBuild } from "astro";
import { formatIssue } from "../content/issues.ts";
import { loadContent } from "../content/load-content.ts";
import { withSiteUrls } from "../content/site-placeholders.ts";
import {
  cacheForFile,
  cdnFiles,
  etagOf,
  fileForUrl,
  type RouteEntry,
  type RouteManifest,
  typeForFile,
  urlForHtmlFile,
} from "../lib/manifest.ts";
import { nginxRoutes } from "../lib/nginx-conf.ts";
import { allArtifacts } from "../lib/outputs/all-artifacts.ts";
import type { BuildContext } from "../lib/outputs/artifact.ts";
import type { BuildConfig } from "./build-config.ts";
import { renderDocsAhead } from "./markdown-ahead.ts";
import { precompressFiles } from "./precompress-fs.ts";
import { createSearchIndex } from "./search-index-fs.ts";

export interface BuildReport {
  manifest: RouteManifest;
  durationMs: number;
  htmlPages: number;
  artifacts: number;
}

export class ContentInvalidError extends Error {
  readonly lines: string[];

  constructor(lines: string[]) {
    super(`The content has ${lines.length} problem(s):\n${lines.join("\n")}`);
    this.lines = lines;
  }
}

/**
 * The whole static build: validate content, render HTML with Astro, index the docs for search,
 * write every other artifact, precompress the text files (`.br`, `.gz`), then the route manifest (for the embedded server), the CDN header
 * and redirect files, and the nginx rules of a static front (`nginx/routes.conf`).
 */
export async function buildSite(config: BuildConfig, options: { quiet?: boolean } = {}): Promise<BuildReport> {
  const started = performance.now();
  const { content, issues } = loadContent({ root: config.contentRoot });
  if (!content || issues.length > 0) throw new ContentInvalidError(issues.map(formatIssue));
  const builtAt = new Date().toISOString();
  const ctx: BuildContext = {
    content: withSiteUrls(content, config),
    siteUrl: config.siteUrl,
    docsUrl: config.docsUrl,
    builtAt,
  };

  await rm(config.outDir, { recursive: true, force: true });
  const ahead = renderDocsAhead(ctx.content);
  try {
    await astroBuild({
      root: config.root,
      outDir: config.outDir,
      site: config.docsUrl,
      logLevel: options.quiet ? "error" : "warn",
      vite: {
        define: {
          __BUILD_CONTEXT__: JSON.stringify({
            contentRoot: config.contentRoot,
            siteUrl: config.siteUrl,
            docsUrl: config.docsUrl,
            builtAt,
          }),
        },
      },
    });
  } finally {
    await ahead.close();
  }
  const clientDir = join(config.outDir, "client");
  const routes: Record<string, RouteEntry> = {};
  const addFileRoute = async (file: string): Promise<{ url: string; bytes: Buffer } | null> => {
    const bytes = await readFile(join(clientDir, file));
    const type = typeForFile(file);
    const url = type.startsWith("text/html") ? urlForHtmlFile(file) : `/${file}`;
    if (url === null) return null;
    routes[url] = { file, type, cache: cacheForFile(file), etag: etagOf(bytes), bytes: bytes.length };
    return { url, bytes };
  };
  const search = await createSearchIndex();
  let htmlPages = 0;
  let artifacts = 0;
  try {
    for (const file of await listFilesRecursive(clientDir)) {
      const added = await addFileRoute(file);
      if (!added || !file.endsWith(".html")) continue;
      htmlPages++;
      search.add(added.url, added.bytes.toString("utf8"));
    }
    // Pagefind indexes in its own process meanwhile, so the other files are written and compressed
    // alongside it; its own files are compressed once it has written them.
    artifacts = await writeArtifacts(ctx, clientDir, routes);
    const compressed = precompressFiles(clientDir, Object.values(routes));
    const searchRoutes: RouteEntry[] = [];
    for (const file of await search.write(clientDir)) {
      const added = await addFileRoute(file);
      const entry = added && routes[added.url];
      if (entry) searchRoutes.push(entry);
    }
    await Promise.all([compressed, precompressFiles(clientDir, searchRoutes)]);
  } finally {
    await search.close();
  }
  const manifest: RouteManifest = {
    version: 1,
    built_at: builtAt,
    site_url: config.siteUrl,
    docs_url: config.docsUrl,
    not_found: "404.html",
    routes,
  };
  const cdn = cdnFiles(manifest, config.apiOrigin);
  // Beside the client directory, not in it: the static front's rules are not a public file.
  await mkdir(join(config.outDir, "nginx"), { recursive: true });
  await Promise.all([
    writeFile(join(config.outDir, "nginx", "routes.conf"), nginxRoutes(manifest)),
    writeFile(join(config.outDir, "manifest.json"), JSON.stringify(manifest)),
    writeFile(join(clientDir, "_headers"), cdn.headers),
    writeFile(join(clientDir, "_redirects"), cdn.redirects),
  ]);
  return { manifest, durationMs: Math.round(performance.now() - started), htmlPages, artifacts };
}

/** Writes every non-HTML file (content API, Markdown twins, discovery…) and adds its route; returns how many. */
async function writeArtifacts(
  ctx: BuildContext,
  clientDir: string,
  routes: Record<string, RouteEntry>,
): Promise<number> {
  const artifacts = allArtifacts(ctx);
  await Promise.all(
    artifacts.map(async (artifact) => {
      const file = fileForUrl(artifact.url, artifact.type);
      const path = join(clientDir, file);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, artifact.body);
      const bytes = typeof artifact.body === "string" ? Buffer.byteLength(artifact.body) : artifact.body.length;
      routes[artifact.url] = {
        file,
        type: artifact.type,
        cache: artifact.cache,
        etag: etagOf(artifact.body),
        bytes,
        ...(artifact.live ? { live: true as const } : {}),
      };
    }),
  );
  return artifacts.length;
}

async function listFilesRecursive(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join("/"));
}
