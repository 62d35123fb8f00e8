import { FastResponse } from "srvx";
import { problemType, type ProblemCode } from "../../src/lib/problems.ts";
import { absolute, paths } from "../../src/lib/urls.ts";

export interface Violation {
  /** JSON Pointer into the request body, in URI-fragment form: `#/use_cases/3`. */
  pointer: string;
  detail: string;
}

/**
 * Thrown anywhere a request must end in an RFC 9457 problem; the app's error hook turns it into
 * the response. `detail` speaks to the client and never carries internals.
 */
export class ApiProblem extends Error {
  readonly status: number;
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly options: { errors?: Violation[]; headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(detail);
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

export function problemResponse(problem: ApiProblem, siteUrl: string, instance: string, requestId?: string): Response {
  const headers = new Headers({ "Content-Type": "application/problem+json", "Cache-Control": "no-store" });
  for (const [name, value] of Object.entries(problem.options.headers ?? {})) headers.set(name, value);
  return new FastResponse(JSON.stringify(problemBody(problem, siteUrl, instance, requestId)), { status: problem.status, headers });
}

/** Escapes a JSON Pointer token (RFC 6901): `~` → `~0`, `/` → `~1`. */
export function pointerFor(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "#";
  return `#/${path.map((part) => String(part).replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
}
