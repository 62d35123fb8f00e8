import type { H3Event } from "h3";

const STATIC = Symbol("static");

/** Marks a request the build's static files answered: it is logged at debug level, not info. */
export function markStatic(event: H3Event): void {
  (event.context as { [STATIC]?: true })[STATIC] = true;
}

export function isStaticRequest(event: H3Event): boolean {
  return (event.context as { [STATIC]?: true })[STATIC] === true;
}
