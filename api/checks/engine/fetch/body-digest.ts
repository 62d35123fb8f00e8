import { createHash } from "node:crypto";
import type { ScanResponse } from "./fetcher.ts";

const digests = new WeakMap<ScanResponse, string>();

/** SHA-256 of a response body, computed once per response. */
export function bodyDigest(response: ScanResponse): string {
  let digest = digests.get(response);
  if (digest === undefined) {
    digest = createHash("sha256").update(response.body).digest("hex");
    digests.set(response, digest);
  }
  return digest;
}
