import { isRecord } from "../parse/json.ts";

/** What a local JSON pointer (`#/components/parameters/id`, RFC 6901) points at in the description, if anything. */
export function pointerTarget(spec: unknown, pointer: string): unknown {
  let current: unknown = spec;
  for (const raw of pointer.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(current)) current = current[Number(key)];
    else if (isRecord(current)) current = current[key];
    else return undefined;
    if (current === undefined) return undefined;
  }
  return current;
}

const MAX_HOPS = 8;

/** A Reference Object followed to what it names (a few hops, no cycles); anything else as it is. */
export function dereferenced(spec: unknown, value: unknown): unknown {
  let current = value;
  for (let hop = 0; hop < MAX_HOPS; hop += 1) {
    if (!isRecord(current) || typeof current.$ref !== "string" || !current.$ref.startsWith("#/")) return current;
    current = pointerTarget(spec, current.$ref);
  }
  return undefined;
}
