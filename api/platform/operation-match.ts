import { OPERATIONS } from "../../src/lib/registry.ts";

const matchers = OPERATIONS.map((operation) => ({
  method: operation.method,
  pattern: new RegExp(
    `^${operation.path
      .replace(/[.*+?^$()|[\]\\]/g, "\\$&")
      .replace(/\\?\{path\}/g, "[^?]+")
      .replace(/\{[a-z_]+\}/g, "[^/]+")}$`,
  ),
}));

/** The methods the API's registry declares for a concrete path (empty when the path is unknown). */
export function methodsForPath(path: string): string[] {
  const methods = new Set<string>();
  for (const matcher of matchers) if (matcher.pattern.test(path)) methods.add(matcher.method);
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods];
}
