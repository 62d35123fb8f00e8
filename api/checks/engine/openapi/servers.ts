import { isRecord } from "../parse/json.ts";

/** A server of an OpenAPI description, resolved to an absolute URL. */
export interface OpenApiServer {
  /** Absolute, with server variables at their defaults; a relative URL resolved against the document's URL. */
  url: URL;
  /** How the description gives it: the `servers` entry as written, or why it is implied (no `servers`, Swagger 2.0). */
  written: string;
  /** False when the description declares no server and the default applies. */
  declared: boolean;
}

const VARIABLE = /\{([^{}]+)\}/g;

/** `{name}` replaced by the variable's `default` (OpenAPI 3.x Server Variable Object: REQUIRED); null when one has none. */
function substituteVariables(url: string, variables: unknown): string | null {
  let unresolved = false;
  const substituted = url.replace(VARIABLE, (_whole, name: string) => {
    const variable = isRecord(variables) ? variables[name] : undefined;
    const value = isRecord(variable) ? variable.default : undefined;
    if (typeof value === "string" || typeof value === "number") return String(value);
    unresolved = true;
    return "";
  });
  return unresolved ? null : substituted;
}

function resolved(url: string, documentUrl: string): URL | null {
  return URL.canParse(url, documentUrl) ? new URL(url, documentUrl) : null;
}

/** Swagger 2.0 §4.3 (Swagger Object): `schemes`, `host` and `basePath`, each defaulting to the document's own. */
function swaggerServer(spec: Record<string, unknown>, documentUrl: string): OpenApiServer[] {
  const document = new URL(documentUrl);
  const scheme =
    Array.isArray(spec.schemes) && typeof spec.schemes[0] === "string" ? spec.schemes[0] : document.protocol;
  const host = typeof spec.host === "string" && spec.host !== "" ? spec.host : document.host;
  const basePath = typeof spec.basePath === "string" ? spec.basePath : "/";
  const url = resolved(`${scheme.replace(/:$/, "")}://${host}${basePath.replace(/^\/?/, "/")}`, documentUrl);
  return url === null ? [] : [{ url, written: `host ${host}, basePath ${basePath}`, declared: true }];
}

/**
 * Every server the description names, resolved: OpenAPI 3.x §4.8.5 (Server Object) lets a URL be relative to where the
 * document is served, and its variables take their defaults. Without `servers`, or with an empty array, the one server
 * is `/` (OpenAPI 3.1 §4.8.1; 3.0 "the default value would be a Server Object with a url value of /"), that is the
 * document's own origin. A server that cannot be resolved (a variable without a default) is left out.
 */
export function openApiServers(spec: Record<string, unknown>, documentUrl: string): OpenApiServer[] {
  if (typeof spec.openapi !== "string" && typeof spec.swagger === "string") return swaggerServer(spec, documentUrl);
  const entries = Array.isArray(spec.servers) ? spec.servers.filter(isRecord) : [];
  if (entries.length === 0) {
    const url = resolved("/", documentUrl);
    return url === null ? [] : [{ url, written: "no servers (so /, the document's origin)", declared: false }];
  }
  return entries.flatMap((entry) => {
    if (typeof entry.url !== "string") return [];
    const substituted = substituteVariables(entry.url, entry.variables);
    const url = substituted === null ? null : resolved(substituted, documentUrl);
    return url === null ? [] : [{ url, written: entry.url, declared: true }];
  });
}

/** A server's URL without a trailing slash, so that `https://host/` and `https://host` are one base. */
export function baseOf(url: URL): string {
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/**
 * The path an operation is called at: the server's path, then the operation's (OpenAPI 3.1 §4.8.8.1: "The path is
 * appended (no relative URL resolution) to the expanded URL from the Server Object's url field"), so
 * `https://host/api/v1` and `/items` give `/api/v1/items`.
 */
export function operationPath(server: URL, path: string): string {
  return `${server.pathname.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}
