/** A value of a form-encoded body with bracket keys, as the stripe SDK sends them. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

function isObject(value: FormValue | undefined): value is FormObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The container the next key segment goes into: the child when it is one, else a fresh object put in its place. */
function descend(
  container: FormObject | FormValue[],
  key: string | number,
  child: FormValue,
): FormObject | FormValue[] {
  if (Array.isArray(child) || isObject(child)) return child;
  const replacement: FormObject = {};
  if (Array.isArray(container)) container[Number(key)] = replacement;
  else container[String(key)] = replacement;
  return replacement;
}

/**
 * `line_items[0][price_data][currency]=eur&expand[0]=line_items` → nested objects and arrays.
 * Numeric segments make arrays, as the SDK's encoder (qs, `arrayFormat: indices`) writes them.
 */
export function parseFormBody(body: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const segments = [key.replace(/\[.*$/, ""), ...[...key.matchAll(/\[([^\]]*)\]/g)].map((match) => match[1] ?? "")];
    let container: FormObject | FormValue[] = root;
    segments.forEach((segment, index) => {
      const last = index === segments.length - 1;
      const nextIsIndex = /^\d*$/.test(segments[index + 1] ?? "x");
      const fresh = (): FormValue => (last ? value : nextIsIndex ? [] : {});
      if (Array.isArray(container)) {
        const position = segment === "" ? container.length : Number(segment);
        const existing = container[position];
        const child = existing ?? fresh();
        container[position] = last ? value : child;
        if (!last) container = descend(container, position, child);
      } else {
        const existing = container[segment];
        const child = existing ?? fresh();
        container[segment] = last ? value : child;
        if (!last) container = descend(container, segment, child);
      }
    });
  }
  return root;
}

export function text(value: FormValue | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function object(value: FormValue | undefined): FormObject {
  return isObject(value) ? value : {};
}

export function list(value: FormValue | undefined): FormValue[] {
  return Array.isArray(value) ? value : isObject(value) ? Object.values(value) : [];
}

/** `metadata[order_id]=…` → `{order_id: "…"}` (string values only, as Stripe stores them). */
export function metadataOf(value: FormValue | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(object(value)).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}
