// Generates a documentation corpus of N pages next to a copy of the real content, for the build
// benchmark. Pages are realistic: sections, nesting up to four segments, tables, lists, code.
import { cp, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

const SECTIONS = ["Guides", "Reference", "Operations", "Agents", "Store", "Checks", "Discovery", "Errors"];

function page(index: number, path: string, section: string | null, position: number): string {
  const key = path.replaceAll("/", "--");
  const day = String(1 + (index % 28)).padStart(2, "0");
  const rows = Array.from(
    { length: 6 },
    (_, row) => `| \`field_${row}\` | string | ${row + 1} to ${(row + 1) * 50} characters |`,
  ).join("\n");
  return `---
title: "Generated page ${index}"
description: "Page ${index} of the generated corpus: how field group ${index % 37} behaves, with limits and examples."
section: ${section ? `"${section}"` : "null"}
position: ${position}
version: "${key}-2026-10-${day}"
published_at: "2026-10-${day}T08:00:00.000Z"
---
This page documents field group ${index}. It exists to measure the build with a corpus the size of a
large product's documentation, so it reads like one.

## Fields

| Field | Type | Constraints |
|---|---|---|
${rows}

## Example

\`\`\`sh
curl -s "$BASE/api/v1/example/${index}" -H 'Accept: application/json'
\`\`\`

## Notes

- Requests over the limit answer **429** with \`Retry-After\`.
- Errors are RFC 9457 problems; see [errors](/docs/reference/errors).
- Related: [page ${index + 1}](/docs/${path}).

${"Each paragraph adds the kind of prose a real page has, so rendering cost is realistic. ".repeat(8)}
`;
}

/** Writes `<root>/content` (the real content, docs replaced by `count` generated pages). */
export async function generateCorpus(root: string, count: number): Promise<void> {
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  await cp("content", join(root, "content"), { recursive: true });
  await rm(join(root, "content", "docs"), { recursive: true, force: true });
  await rm(join(root, "content", "archive", "docs"), { recursive: true, force: true });
  const perSection = Math.ceil(count / SECTIONS.length);
  const writes: Promise<void>[] = [];
  for (let index = 0; index < count; index++) {
    const sectionIndex = Math.floor(index / perSection);
    const within = index % perSection;
    const top = `area-${sectionIndex}`;
    // Nest a quarter of the pages two and three levels deep, so paths of up to four segments occur.
    const path =
      within === 0
        ? top
        : within % 4 === 0
          ? `${top}/group-${within % 7}/topic-${within}/detail`
          : within % 3 === 0
            ? `${top}/group-${within % 7}/topic-${within}`
            : `${top}/page-${within}`;
    const file = join(root, "content", "docs", `${path}.md`);
    const section = within === 0 ? (SECTIONS[sectionIndex % SECTIONS.length] ?? null) : null;
    writes.push(
      mkdir(join(file, ".."), { recursive: true }).then(() => writeFile(file, page(index, path, section, within * 10))),
    );
  }
  await Promise.all(writes);
}
