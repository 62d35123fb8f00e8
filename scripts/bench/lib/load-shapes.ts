/**
 * What a load run is asked to do and what it measured, shared by both generators (wrk.ts,
 * load-runner.mjs via load.ts): a file of its own, so load.ts and wrk.ts need not import each other.
 */
export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  total: number;
  statusCodes: Record<string, number>;
}

export interface LoadOptions {
  url: string;
  connections?: number;
  seconds?: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Rotated per request: distinct bodies. */
  bodies?: string[];
  /** Rotated per request: distinct headers (e.g. one token per agent). */
  headerSets?: Record<string, string>[];
  /** Rotated per request, replacing method, path, headers and body: a mixed workload against `url`'s origin. */
  requests?: MixedRequest[];
}

export interface MixedRequest {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}
