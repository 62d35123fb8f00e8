import { escapeXml } from "./xml-text.ts";
/** One run on the chart: when it ran, and its score (`null`: failed or incomplete, drawn as a gap and a cross). */
export interface ChartPoint {
  at: string;
  score: number | null;
}

// Narrow, with large type: scaled down to a phone's width, the labels stay about 10 px high.
const WIDTH = 480;
const HEIGHT = 220;
const PAD = { left: 44, right: 16, top: 16, bottom: 40 };

const day = (iso: string) => iso.slice(0, 10);

/**
 * The score over time as an SVG drawn on the server, so the page needs no script: a line through the
 * scored runs (broken where a run has no score), a cross at each run without one, the 0–100 axis with
 * gridlines at every 25, and the first and last dates. Colours are `currentColor` and theme variables,
 * so it follows the page's light or dark theme; `<title>` and `<desc>` give it an accessible name and a
 * summary a screen reader can read (the table below it on the page has every value).
 */
export function renderScoreChart(points: readonly ChartPoint[], subject: string): string {
  const sorted = [...points].sort((left, right) => left.at.localeCompare(right.at));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const times = sorted.map((point) => new Date(point.at).getTime());
  const first = times[0] ?? 0;
  const span = Math.max(1, (times.at(-1) ?? 0) - first);
  const x = (index: number) =>
    PAD.left + (sorted.length === 1 ? plotWidth / 2 : (((times[index] ?? first) - first) / span) * plotWidth);
  const y = (score: number) => PAD.top + plotHeight - (score / 100) * plotHeight;
  const scored = sorted.filter((point) => point.score !== null);
  const description =
    sorted.length === 0
      ? "No runs yet."
      : `${sorted.length} run${sorted.length === 1 ? "" : "s"} from ${day(sorted[0]?.at ?? "")} to ${day(sorted.at(-1)?.at ?? "")}; ${
          scored.length === 0
            ? "none has a score"
            : `scores from ${Math.min(...scored.map((point) => point.score ?? 0))} to ${Math.max(...scored.map((point) => point.score ?? 0))}, latest ${scored.at(-1)?.score}`
        }.`;
  const segments: string[][] = [[]];
  const marks: string[] = [];
  sorted.forEach((point, index) => {
    const px = x(index).toFixed(1);
    if (point.score === null) {
      if ((segments.at(-1) ?? []).length > 0) segments.push([]);
      const py = y(0) - 6;
      marks.push(
        `<path d="M${Number(px) - 4} ${py - 4}l8 8m0 -8l-8 8" stroke="var(--bad, #c4212d)" stroke-width="2"/>`,
      );
      return;
    }
    const py = y(point.score).toFixed(1);
    segments.at(-1)?.push(`${px},${py}`);
    marks.push(
      `<circle cx="${px}" cy="${py}" r="3.5" fill="var(--ok, #1a7f37)"><title>${escapeXml(`${day(point.at)}: ${point.score}%`)}</title></circle>`,
    );
  });
  const grid = [0, 25, 50, 75, 100].map(
    (score) =>
      `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(score)}" y2="${y(score)}" stroke="currentColor" stroke-opacity=".15"/>` +
      `<text x="${PAD.left - 6}" y="${y(score) + 5}" text-anchor="end">${score}</text>`,
  );
  const lines = segments
    .filter((segment) => segment.length > 1)
    .map(
      (segment) => `<polyline points="${segment.join(" ")}" fill="none" stroke="var(--ok, #1a7f37)" stroke-width="2"/>`,
    );
  const dates =
    sorted.length === 0
      ? []
      : [
          `<text x="${PAD.left}" y="${HEIGHT - 10}">${day(sorted[0]?.at ?? "")}</text>`,
          ...(sorted.length > 1
            ? [
                `<text x="${WIDTH - PAD.right}" y="${HEIGHT - 10}" text-anchor="end">${day(sorted.at(-1)?.at ?? "")}</text>`,
              ]
            : []),
        ];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-title chart-desc" font-family="system-ui, sans-serif" font-size="15" fill="currentColor">`,
    `<title id="chart-title">${escapeXml(`Readiness score of ${subject} over time`)}</title>`,
    `<desc id="chart-desc">${escapeXml(description)}</desc>`,
    ...grid,
    ...lines,
    ...marks,
    ...dates,
    "</svg>",
  ].join("");
}
