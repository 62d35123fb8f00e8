import { createHash } from "node:crypto";

/** Every cover's size in CSS pixels (16:9); pages give it to `<img>` so nothing shifts while it loads. */
export const COVER_SIZE = { width: 640, height: 360 } as const;

export interface CoverInput {
  /** The product's id: where the pattern's shapes sit, so two products of a category still differ. */
  id: string;
  title: string;
  /** The category's id picks the colours, so every product of a category shares them. */
  categoryId: string;
  categoryTitle: string;
}

const MARGIN = 40;
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
// The advance of a wide bold sans-serif letter (DejaVu Sans Bold, Verdana), as a share of the font size, to wrap the
// title without measuring it (the build has no font metrics): a line a little short of the edge is fine, past it is not.
const BOLD_ADVANCE = 0.7;

/**
 * A product's cover, drawn by the build from its title and category: an SVG with no external image,
 * font or script. Colours come from the category (white text on a dark background: a contrast of at
 * least 7:1), the title is wrapped onto at most three lines, and a few circles placed from the id's
 * hash keep covers of one category apart.
 */
export function productCover(input: CoverInput): string {
  const { width, height } = COVER_SIZE;
  const hue = hashBytes(input.categoryId)[0] ?? 0;
  const hueDegrees = Math.round((hue / 256) * 360);
  const { size, lines } = fitTitle(input.title, width - 2 * MARGIN);
  const lineHeight = Math.round(size * 1.15);
  const titleTop = height - MARGIN - lineHeight * (lines.length - 1);
  const shapes = hashBytes(input.id);
  const circles = [0, 1, 2].map((index) => {
    const x = Math.round(((shapes[index * 3] ?? 0) / 255) * width);
    const y = Math.round(((shapes[index * 3 + 1] ?? 0) / 255) * (height * 0.6));
    const r = 40 + Math.round(((shapes[index * 3 + 2] ?? 0) / 255) * 120);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="#fff" fill-opacity="0.07"/>`;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<title>${escapeXml(input.title)}</title>`,
    "<defs>",
    `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hueDegrees} 62% 26%)"/><stop offset="1" stop-color="hsl(${(hueDegrees + 40) % 360} 58% 18%)"/></linearGradient>`,
    "</defs>",
    `<rect width="${width}" height="${height}" fill="url(#bg)"/>`,
    ...circles,
    `<text x="${MARGIN}" y="${MARGIN + 16}" fill="#fff" fill-opacity="0.85" font-family="${FONT}" font-size="18" font-weight="600" letter-spacing="2">${escapeXml(input.categoryTitle.toUpperCase())}</text>`,
    `<text fill="#fff" font-family="${FONT}" font-size="${size}" font-weight="700">`,
    ...lines.map(
      (line, index) => `<tspan x="${MARGIN}" y="${titleTop + index * lineHeight}">${escapeXml(line)}</tspan>`,
    ),
    "</text>",
    "</svg>",
    "",
  ].join("\n");
}

/** The largest font size (from 56 px down to 28 px) at which the title wraps onto three lines or fewer. */
function fitTitle(title: string, width: number): { size: number; lines: string[] } {
  for (let size = 56; size > 28; size -= 4) {
    const lines = wrap(title, Math.floor(width / (size * BOLD_ADVANCE)));
    if (lines.length <= 3) return { size, lines };
  }
  const lines = wrap(title, Math.floor(width / (28 * BOLD_ADVANCE)));
  // Past three lines even at the smallest size: the third line ends the title with an ellipsis.
  return { size: 28, lines: lines.length <= 3 ? lines : [...lines.slice(0, 2), `${lines[2]}…`] };
}

/** Greedy word wrap to lines of at most `columns` characters; a longer word gets a line of its own. */
function wrap(text: string, columns: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > columns) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

function hashBytes(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
