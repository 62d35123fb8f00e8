import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = process.cwd();
const SOURCE = /\.(ts|mjs)$/;

function filesUnder(dir: string, source: RegExp = SOURCE): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(ROOT, path)).isDirectory() ? filesUnder(path, source) : source.test(name) ? [path] : [];
  });
}

const API_FILES = filesUnder("api");
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)["'](\.{1,2}\/[^"']+)["']/gm;

/** Every relative import of a file, as paths from the repository root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(IMPORT)].map((match) => join(dirname(file), match[1] ?? ""));
}

const GRAPH = new Map(API_FILES.map((file) => [file, importsOf(file).filter((target) => target.startsWith("api/"))]));

/**
 * Every source file of the tree (the server, the build and its pages, the CLIs) with its imports
 * among them: a circle may run through any of them, across folders too.
 */
const TREE_FILES = [...API_FILES, ...filesUnder("src", /\.(ts|mjs|astro)$/), ...filesUnder("scripts")];
const TREE = new Set(TREE_FILES);
const TREE_GRAPH = new Map(TREE_FILES.map((file) => [file, importsOf(file).filter((target) => TREE.has(target))]));

/** Each import circle of `graph`, as `a → b → a`. */
function circlesIn(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === "done") return;
    if (state.get(file) === "open") {
      cycles.push([...path.slice(path.indexOf(file)), file].join(" → "));
      return;
    }
    state.set(file, "open");
    for (const target of graph.get(file) ?? []) visit(target, [...path, file]);
    state.set(file, "done");
  };
  for (const file of graph.keys()) visit(file, []);
  return cycles;
}

/** Shared machinery every feature stands on; it imports no feature and no wiring. */
const LOWER = ["api/config.ts", "api/platform/", "api/db/"];
/** The wiring: the files that compose the features into the app, and the server entry that starts it. */
const isWiring = (file: string) => file.startsWith("api/wiring/") || file === "api/server.ts";
const FEATURES = ["agents", "waitlists", "store", "checks", "monitors", "payments", "mail", "site", "mcp", "oauth"];
/**
 * Payments and mail serve the other features: these files are what they offer (the gateway, the
 * provider's parsed objects and failures, the webhook handler type; composing and queuing mail).
 * Monitors offer the one origin a monitor watches, which a report's "watch this site" names.
 * Anything else in a feature folder is its own business.
 */
const PUBLIC = [
  "api/payments/stripe-client.ts",
  "api/payments/stripe-objects.ts",
  "api/payments/provider-failure.ts",
  "api/payments/webhooks.ts",
  "api/mail/compose.ts",
  "api/mail/outbox.ts",
  "api/mail/outbox-sql.ts",
  "api/monitors/target.ts",
];

const isLower = (file: string) => LOWER.some((prefix) => file === prefix || file.startsWith(prefix));
const featureOf = (file: string) => FEATURES.find((feature) => file.startsWith(`api/${feature}/`));

describe("the api/ layout", () => {
  it("has no import circles", () => {
    expect(circlesIn(GRAPH)).toEqual([]);
  });

  it("has no import circles in scripts/ and src/ either, nor through them", () => {
    expect(TREE_GRAPH.size).toBeGreaterThan(API_FILES.length);
    expect(circlesIn(TREE_GRAPH)).toEqual([]);
  });

  it("never imports a feature or the wiring from the shared machinery below them", () => {
    const upward = [...GRAPH].flatMap(([file, targets]) =>
      isLower(file) ? targets.filter((target) => !isLower(target)).map((target) => `${file} → ${target}`) : [],
    );
    expect(upward).toEqual([]);
  });

  it("lets a feature use another feature only through what that one offers, and never the wiring", () => {
    const reaching = [...GRAPH].flatMap(([file, targets]) => {
      const feature = featureOf(file);
      if (!feature) return [];
      return targets
        .filter((target) => {
          if (isLower(target) || featureOf(target) === feature) return false;
          return !PUBLIC.includes(target);
        })
        .map((target) => `${file} → ${target}`);
    });
    expect(reaching).toEqual([]);
  });

  it("lets the fast path answer ahead of h3 from what the features offer, never from the wiring", () => {
    const fastPath = [...GRAPH].filter(([file]) => file.startsWith("api/fast-path/"));
    expect(fastPath.length).toBeGreaterThan(0);
    const wired = fastPath.flatMap(([file, targets]) =>
      targets.filter((target) => isWiring(target)).map((target) => `${file} → ${target}`),
    );
    expect(wired).toEqual([]);
  });

  it("keeps folders small: no folder under api/ directly holds more than 12 source files", () => {
    const counts = new Map<string, number>();
    for (const file of API_FILES) counts.set(dirname(file), (counts.get(dirname(file)) ?? 0) + 1);
    const crowded = [...counts].filter(([, count]) => count > 12).map(([dir, count]) => `${dir}: ${count}`);
    expect(crowded).toEqual([]);
  });

  it("reads as server, features, platform and db: the top of api/ holds the entry and the configuration, the wiring its own folder", () => {
    const loose = API_FILES.filter((file) => dirname(file) === "api");
    expect(loose.sort()).toEqual(["api/config.ts", "api/server.ts"]);
    const folders = new Set(API_FILES.map((file) => file.split("/")[1]).filter((part) => !part?.endsWith(".ts")));
    expect([...folders].sort()).toEqual([...FEATURES, "db", "fast-path", "platform", "wiring"].sort());
  });

  it("keeps source files under 300 lines", () => {
    const long = [...API_FILES, ...filesUnder("src"), ...filesUnder("scripts")]
      .map((file) => ({ file, lines: readFileSync(join(ROOT, file), "utf8").split("\n").length }))
      .filter(({ lines }) => lines > 300)
      .map(({ file, lines }) => `${relative(ROOT, join(ROOT, file))}: ${lines}`);
    expect(long).toEqual([]);
  });
});
