// A dependency-free SVG line chart: two panels (throughput, p99 latency) against concurrency, one
// line per series. Concurrency points are spaced evenly (they grow by a factor of 4), values from zero.

export interface ChartSeries {
  name: string;
  /** One value per concurrency point, in the same order. */
  throughput: number[];
  p99Ms: number[];
}

const PANEL_WIDTH = 340;
const PANEL_HEIGHT = 220;
const MARGIN = { top: 34, right: 16, bottom: 40, left: 64 };
const COLOURS = ["#1d4ed8", "#b45309", "#047857", "#7c3aed"];

const escapeXml = (text: string): string => text.replace(/[<>&"]/g, (char) => `&#${char.charCodeAt(0)};`);

/** A round upper bound for an axis: 1, 2, 2.5 or 5 times a power of ten, at least `max`. */
export function niceCeiling(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

function panel(
  title: string,
  concurrency: readonly number[],
  series: { name: string; values: number[] }[],
  offsetX: number,
  unit: string,
): string {
  const plotWidth = PANEL_WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = PANEL_HEIGHT - MARGIN.top - MARGIN.bottom;
  const top = niceCeiling(Math.max(...series.flatMap((line) => line.values)));
  const x = (index: number) =>
    offsetX + MARGIN.left + (concurrency.length === 1 ? plotWidth / 2 : (index / (concurrency.length - 1)) * plotWidth);
  const y = (value: number) => MARGIN.top + plotHeight - (value / top) * plotHeight;
  const parts = [
    `<text x="${offsetX + PANEL_WIDTH / 2}" y="18" text-anchor="middle" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  for (const fraction of [0, 0.25, 0.5, 0.75, 1]) {
    const value = top * fraction;
    parts.push(
      `<line x1="${offsetX + MARGIN.left}" x2="${offsetX + MARGIN.left + plotWidth}" y1="${y(value)}" y2="${y(value)}" stroke="#ddd"/>`,
    );
    parts.push(
      `<text x="${offsetX + MARGIN.left - 6}" y="${y(value) + 4}" text-anchor="end">${Math.round(value).toLocaleString("en")}</text>`,
    );
  }
  concurrency.forEach((connections, index) => {
    parts.push(
      `<text x="${x(index).toFixed(1)}" y="${MARGIN.top + plotHeight + 16}" text-anchor="middle">${connections}</text>`,
    );
  });
  parts.push(
    `<text x="${offsetX + MARGIN.left + plotWidth / 2}" y="${PANEL_HEIGHT - 6}" text-anchor="middle">connections (${escapeXml(unit)})</text>`,
  );
  series.forEach((line, lineIndex) => {
    const colour = COLOURS[lineIndex % COLOURS.length];
    const points = line.values.map((value, index) => `${x(index).toFixed(1)},${y(value).toFixed(1)}`);
    parts.push(
      `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points.join(" ")}"><title>${escapeXml(line.name)}</title></polyline>`,
    );
    line.values.forEach((value, index) => {
      parts.push(
        `<circle cx="${x(index).toFixed(1)}" cy="${y(value).toFixed(1)}" r="3" fill="${colour}"><title>${escapeXml(`${line.name}, ${concurrency[index]} connections: ${Math.round(value).toLocaleString("en")} ${unit}`)}</title></circle>`,
      );
    });
  });
  return parts.join("\n");
}

/** The chart as a standalone SVG document, with a title and description for screen readers. */
export function throughputAndLatencyChart(
  title: string,
  concurrency: readonly number[],
  series: ChartSeries[],
): string {
  const width = PANEL_WIDTH * 2;
  const legendY = PANEL_HEIGHT + 8;
  // One legend entry per line of text, so long series names never run into each other.
  const legend = series.map((line, index) => {
    const colour = COLOURS[index % COLOURS.length];
    const y = legendY + index * 16;
    return `<rect x="${MARGIN.left}" y="${y}" width="14" height="4" fill="${colour}"/><text x="${MARGIN.left + 20}" y="${y + 6}">${escapeXml(line.name)}</text>`;
  });
  const height = legendY + series.length * 16 + 4;
  const description = series
    .map(
      (line) =>
        `${line.name}: ${concurrency.map((connections, index) => `${connections} connections ${Math.round(line.throughput[index] ?? 0)} req/s, p99 ${Math.round(line.p99Ms[index] ?? 0)} ms`).join("; ")}`,
    )
    .join(". ");
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="chart-title chart-description" font-family="system-ui, sans-serif" font-size="11" fill="#222">`,
    `<title id="chart-title">${escapeXml(title)}</title>`,
    `<desc id="chart-description">${escapeXml(description)}</desc>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    panel(
      "Throughput",
      concurrency,
      series.map((line) => ({ name: line.name, values: line.throughput })),
      0,
      "req/s",
    ),
    panel(
      "p99 latency",
      concurrency,
      series.map((line) => ({ name: line.name, values: line.p99Ms })),
      PANEL_WIDTH,
      "ms",
    ),
    ...legend,
    "</svg>",
    "",
  ].join("\n");
}
