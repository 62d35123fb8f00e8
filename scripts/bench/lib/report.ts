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
}

export function printSection(section: BenchSection): void {
  console.log(`\n## ${section.title}\n`);
  console.log("| metric | value | baseline | target | met |");
  console.log("|---|---|---|---|---|");
  for (const row of section.rows) console.log(`| ${row.metric} | ${row.value} | ${row.baseline ?? ""} | ${row.target} | ${row.met ? "yes" : "**no**"} |`);
  for (const note of section.notes ?? []) console.log(`\n${note}`);
}

export const fmt = {
  rps: (value: number) => `${Math.round(value).toLocaleString("en")} req/s`,
  pct: (ratio: number) => `${Math.round(ratio * 100)} %`,
  ms: (value: number) => `${Math.round(value)} ms`,
  mb: (value: number) => `${Math.round(value)} MB`,
};
