import { OPERATIONS } from "../../src/lib/registry.ts";
import { ApiProblem } from "./problem.ts";

const isTemplate = (path: string) => path.includes("{");

/** A path template as an anchored expression: `{name}` one segment, `{path}` several. */
export function templatePattern(template: string): RegExp {
  return new RegExp(
    `^${template
      .replace(/[.*+?^$()|[\]\\]/g, "\\$&")
      .replace(/\\?\{path\}/g, "[^?]+")
      .replace(/\{[a-z_]+\}/g, "[^/]+")}$`,
  );
}

const matchers = OPERATIONS.map((operation) => ({
  method: operation.method,
  literal: !isTemplate(operation.path),
  pattern: templatePattern(operation.path),
}));

/**
 * The methods the API's registry declares for a concrete path (empty when the path is unknown). A
 * path that is some operation's literal path is that resource only, as the router sees it:
 * `/api/v1/monitors/confirm` is the POST-only confirmation, not a monitor id that
 * `GET /api/v1/monitors/{id}` would take.
 */
export function methodsForPath(path: string): string[] {
  const matching = matchers.filter((matcher) => matcher.pattern.test(path));
  const literal = matching.filter((matcher) => matcher.literal);
  const methods = new Set<string>((literal.length > 0 ? literal : matching).map((matcher) => matcher.method));
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods];
}

/** The 405 for a method a known path does not take (RFC 9110 §15.5.6: `Allow` lists what it does take). */
export function methodNotAllowed(path: string, method: string, allowed: readonly string[]): ApiProblem {
  return new ApiProblem("method-not-allowed", `${path} does not accept ${method}; it takes ${allowed.join(", ")}.`, {
    headers: { Allow: allowed.join(", ") },
  });
}

/**
 * The literal operation paths a template of another method would capture, with that method: the
 * router gives `GET /api/v1/monitors/confirm` to `GET /api/v1/monitors/{id}` (404 "No such monitor")
 * unless the literal path is routed for GET too, to answer the 405 its resource deserves.
 */
export function shadowedLiteralPaths(): { method: "GET" | "POST"; path: string }[] {
  const shadowed = new Map<string, { method: "GET" | "POST"; path: string }>();
  for (const template of OPERATIONS.filter((operation) => isTemplate(operation.path))) {
    const pattern = templatePattern(template.path);
    for (const literal of OPERATIONS.filter((operation) => !isTemplate(operation.path))) {
      if (!pattern.test(literal.path) || methodsForPath(literal.path).includes(template.method)) continue;
      shadowed.set(`${template.method} ${literal.path}`, { method: template.method, path: literal.path });
    }
  }
  return [...shadowed.values()];
}
