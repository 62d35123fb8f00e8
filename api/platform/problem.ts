import type { H3Event } from "h3";
import { type ProblemCode, problemType } from "../../src/lib/problems.ts";
import { absolute, paths } from "../../src/lib/urls.ts";
import { requestIdOf } from "./http/request-id.ts";
import { limitsOf } from "./http/request-limits.ts";
import { completeResponse } from "./http/responses.ts";

export interface Violation {
  /** JSON Pointer into the request body, in URI-fragment form: `#/use_cases/3`. */
  pointer: string;
  detail: string;
}

export interface ProblemOptions {
  errors?: Violation[];
  headers?: Record<string, string>;
  extra?: Record<string, unknown>;
  /** What went wrong underneath; never sent, but pages may word it for people. */
  cause?: unknown;
}

/**
 * Thrown anywhere a request must end in an RFC 9457 problem; the app's error hook turns it into
 * the response. `detail` speaks to the client and never carries internals.
 */
export class ApiProblem extends Error {
  readonly status: number;
  readonly code: ProblemCode;
  readonly detail: string;
  readonly options: ProblemOptions;

  constructor(code: ProblemCode, detail: string, options: ProblemOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.detail = detail;
    this.options = options;
    this.name = "ApiProblem";
    this.status = problemType(code).status;
  }
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: ProblemCode;
  errors?: Violation[];
  request_id?: string;
  [extension: string]: unknown;
}

export function problemBody(problem: ApiProblem, siteUrl: string, instance: string, requestId?: string): ProblemBody {
  const type = problemType(problem.code);
  return {
    type: absolute(siteUrl, paths.problem(type.code)),
    title: type.title,
    status: type.status,
    detail: problem.detail,
    instance,
    code: problem.code,
    ...(problem.options.errors ? { errors: problem.options.errors } : {}),
    ...problem.options.extra,
    ...(requestId ? { request_id: requestId } : {}),
  };
}

export function problemResponse(event: H3Event, problem: ApiProblem, siteUrl: string): Response {
  const body = problemBody(problem, siteUrl, event.url.pathname, requestIdOf(event));
  return completeResponse(event, JSON.stringify(body), {
    status: problem.status,
    type: "application/problem+json",
    headers: { ...limitsOf(event), ...problem.options.headers },
  });
}

/** Escapes a JSON Pointer token (RFC 6901): `~` → `~0`, `/` → `~1`. */
export function pointerFor(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "#";
  return `#/${path.map((part) => String(part).replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
}
