import type { DocEntry } from "../content/model.ts";

export interface SidebarGroup {
  /** `null` for pages before the first page that names a section. */
  title: string | null;
  pages: { doc: DocEntry; depth: number }[];
}

/**
 * Docs in reading order: a parent before its children, siblings (same parent path) by `position`,
 * then by path. A directory without its own page sorts by its first child.
 */
export function sortDocs(docs: readonly DocEntry[]): DocEntry[] {
  // Every page of a build asks for the same order; computing it once keeps a large build linear.
  const cached = sortedCache.get(docs);
  if (cached) return cached;
  const sorted = computeOrder(docs);
  sortedCache.set(docs, sorted);
  return sorted;
}

const sortedCache = new WeakMap<readonly DocEntry[], DocEntry[]>();
const sidebarCache = new WeakMap<readonly DocEntry[], SidebarGroup[]>();

function computeOrder(docs: readonly DocEntry[]): DocEntry[] {
  const byPath = new Map(docs.map((doc) => [doc.path, doc]));
  const nodePosition = new Map<string, number>();
  const positionOf = (prefix: string): number => {
    const cached = nodePosition.get(prefix);
    if (cached !== undefined) return cached;
    const page = byPath.get(prefix);
    const value = page
      ? page.data.position
      : Math.min(...docs.filter((doc) => doc.path.startsWith(`${prefix}/`)).map((doc) => doc.data.position));
    nodePosition.set(prefix, value);
    return value;
  };
  const sortKey = (doc: DocEntry) => {
    const segments = doc.path.split("/");
    return segments.map((segment, index) => ({
      position: positionOf(segments.slice(0, index + 1).join("/")),
      segment,
    }));
  };
  const keys = new Map(docs.map((doc) => [doc, sortKey(doc)]));
  return [...docs].sort((a, b) => {
    const ka = keys.get(a) ?? [];
    const kb = keys.get(b) ?? [];
    for (let index = 0; index < Math.min(ka.length, kb.length); index++) {
      const x = ka[index];
      const y = kb[index];
      if (!x || !y) break;
      if (x.position !== y.position) return x.position - y.position;
      if (x.segment !== y.segment) return x.segment.localeCompare(y.segment);
    }
    return ka.length - kb.length;
  });
}

/** Groups docs under the sidebar headings their `section` fields start. */
export function buildSidebar(docs: readonly DocEntry[]): SidebarGroup[] {
  const cached = sidebarCache.get(docs);
  if (cached) return cached;
  const groups: SidebarGroup[] = [];
  let current: SidebarGroup | undefined;
  for (const doc of sortDocs(docs)) {
    if (doc.data.section !== null || !current) {
      current = { title: doc.data.section, pages: [] };
      groups.push(current);
    }
    current.pages.push({ doc, depth: doc.path.split("/").length - 1 });
  }
  sidebarCache.set(docs, groups);
  return groups;
}

export interface DocNeighbours {
  previous?: DocEntry;
  next?: DocEntry;
}

const positionCache = new WeakMap<readonly DocEntry[], Map<string, number>>();

/** The pages before and after `path` in sidebar order, for a page's previous/next links. */
export function docNeighbours(docs: readonly DocEntry[], path: string): DocNeighbours {
  const order = sortDocs(docs);
  let positions = positionCache.get(docs);
  if (!positions) {
    positions = new Map(order.map((doc, index) => [doc.path, index]));
    positionCache.set(docs, positions);
  }
  const index = positions.get(path);
  if (index === undefined) return {};
  const previous = order[index - 1];
  const next = order[index + 1];
  return { ...(previous ? { previous } : {}), ...(next ? { next } : {}) };
}
