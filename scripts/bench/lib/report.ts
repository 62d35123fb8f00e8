/** One measured figure, with its target and, for throughput, the baseline it is a ratio of. */
export interface BenchRow {
  metric: string;
  value: string;
  baseline?: string;
  target: string;
  met: boolean;
}

export interface BenchSection {
  title: string;
  rows: BenchRow[];
  notes?: string[];
  /** A chart shown after the table, as a site path. */
  figure?: { src: string; alt: string };
}

/** A section as Markdown: a heading, the table, then its notes. Printed by `npm run bench` and written into the docs. */
export function sectionMarkdown(section: BenchSection): string {
  const lines = [`## ${section.title}`, "", "| metric | value | baseline | target | met |", "|---|---|---|---|---|"];
  for (const row of section.rows)
    lines.push(
      `| ${row.metric} | ${row.value} | ${row.baseline ?? ""} | ${row.target} | ${row.met ? "yes" : "**no**"} |`,
    );
  if (section.figure) lines.push("", `![${section.figure.alt}](${section.figure.src})`);
  for (const note of section.notes ?? []) lines.push("", note);
  return lines.join("\n");
}

export function printSection(section: BenchSection): void {
  console.log(`\n${sectionMarkdown(section)}`);
}

export const fmt = {
  rps: (value: number) => `${Math.round(value).toLocaleString("en")} req/s`,
  pct: (ratio: number) => `${Math.round(ratio * 100)} %`,
  ms: (value: number) => `${Math.round(value)} ms`,
  mb: (value: number) => `${Math.round(value)} MB`,
};
