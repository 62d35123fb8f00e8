import { formatBytes } from "../../../../src/lib/format-bytes.ts";

/**
 * Something wrong with what the site answered that the scan recorded instead of throwing, so that the checks judge it
 * (a `fail` with the response as evidence) and the other locations of a document are still probed (DESIGN §8).
 * - too-large: the body went past the scan's size cap (decompressed), an oversize body or a decompression bomb
 * - redirect-refused: a redirect to an address no public client can reach (private, loopback, reserved…)
 * - redirect-limit: still redirecting after the hops the scan follows, or a redirect loop
 * - undecodable: a body in a compression it declares (a `.gz` file) that does not decompress
 */
export type ResponseFaultKind = "too-large" | "redirect-refused" | "redirect-limit" | "undecodable";

export interface ResponseFault {
  kind: ResponseFaultKind;
  message: string;
}

/** The byte offset of the first byte that is not part of valid UTF-8, or -1 when the whole buffer is valid. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index] ?? 0;
    const length =
      lead < 0x80
        ? 1
        : lead >= 0xc2 && lead <= 0xdf
          ? 2
          : lead >= 0xe0 && lead <= 0xef
            ? 3
            : lead >= 0xf0 && lead <= 0xf4
              ? 4
              : 0;
    if (length === 0 || index + length > bytes.length) return index;
    for (let offset = 1; offset < length; offset += 1) {
      const next = bytes[index + offset] ?? 0;
      if ((next & 0xc0) !== 0x80) return index;
    }
    const second = bytes[index + 1] ?? 0;
    // Overlong three- and four-byte forms, UTF-16 surrogates and code points past U+10FFFF (RFC 3629 §4).
    if ((lead === 0xe0 && second < 0xa0) || (lead === 0xed && second > 0x9f)) return index;
    if ((lead === 0xf0 && second < 0x90) || (lead === 0xf4 && second > 0x8f)) return index;
    index += length;
  }
  return -1;
}

export function oversize(href: string, limit: number, headers: Readonly<Record<string, string>>): ResponseFault {
  const encoding = headers["content-encoding"];
  const declared = headers["content-length"];
  const wire = declared === undefined ? "" : formatBytes(Number(declared));
  const how =
    encoding !== undefined
      ? ` once decompressed (Content-Encoding: ${encoding}${wire === "" ? "" : `, ${wire} on the wire`}): a decompression bomb or an oversize body`
      : wire === ""
        ? ""
        : ` (it declares ${wire})`;
  return {
    kind: "too-large",
    message: `${href} is larger than the scan's ${formatBytes(limit)} cap${how}; only the first ${formatBytes(limit)} was read`,
  };
}

export function redirectLimit(start: string, hops: number): ResponseFault {
  return { kind: "redirect-limit", message: `${start} still redirects after ${hops} hops, the most the scan follows` };
}

export function redirectLoop(from: string, to: string): ResponseFault {
  return { kind: "redirect-limit", message: `${from} redirects back to ${to}: a redirect loop` };
}
