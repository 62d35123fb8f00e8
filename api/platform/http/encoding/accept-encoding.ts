import { CONTENT_CODINGS, type ContentCoding } from "../../../../src/lib/compression.ts";

/** The q-value of each coding the client named; `*` stands for every coding it did not name. */
function parseAcceptEncoding(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const coding = name.trim() === "x-gzip" ? "gzip" : name.trim();
    if (coding === "") continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    const value = q ? Number.parseFloat(q.slice(2)) : 1;
    weights.set(coding, Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0);
  }
  return weights;
}

/**
 * The coding to answer with, among those a body is available in, by the rules of RFC 9110 §12.5.3:
 * the highest q-value wins, the first of `preference` (`br`, then `gzip`) and then no coding when they tie; `*` covers codings
 * the header does not name; `q=0` refuses. No coding (`null`) when the client sent no
 * Accept-Encoding (most servers read that as "identity only", and so do we), when it accepts none
 * of `available`, or when it prefers the body as it is. Refusing `identity` as well leaves it as
 * the answer anyway: §12.5.3 lets a server send the body without a coding rather than fail.
 */
export function chooseContentCoding(
  acceptEncoding: string | null | undefined,
  available: Partial<Record<ContentCoding, unknown>>,
  preference: readonly ContentCoding[] = CONTENT_CODINGS,
): ContentCoding | null {
  if (!acceptEncoding) return null;
  const weights = parseAcceptEncoding(acceptEncoding);
  const star = weights.get("*");
  const weightOf = (coding: string) => weights.get(coding) ?? star ?? (coding === "identity" ? 1 : 0);
  let best: ContentCoding | null = null;
  let bestWeight = 0;
  for (const coding of preference) {
    const weight = available[coding] === undefined ? 0 : weightOf(coding);
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  // `identity` is refused only by name or by `*;q=0` (§12.5.3); a tie keeps the smaller coded body.
  const identity = weights.get("identity") ?? (star === 0 ? 0 : 1);
  return best !== null && bestWeight >= identity ? best : null;
}
