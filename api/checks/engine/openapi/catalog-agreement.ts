import { isRecord } from "../parse/json.ts";
import { baseOf, type OpenApiServer, operationPath } from "./servers.ts";

/** What the api-catalog and the OpenAPI description say about where the API is: errors fail, cautions warn. */
export interface BaseUrlAgreement {
  errors: string[];
  cautions: string[];
}

const within = (path: string, parent: string): boolean => path === parent || path.startsWith(`${parent}/`);
const trimmed = (path: string): string => path.replace(/\/+$/, "");

/**
 * An api-catalog anchor names the same API as an OpenAPI server when they are one base URL, or when an operation of the
 * description is at or under the anchor: an anchor `https://host/api/v3/store` and a server `https://host` whose paths
 * start with `/api/v3/store` describe one API (RFC 9727 §4.1 names an API by its URI, OpenAPI builds operation URLs
 * from the server's).
 */
function namesSameApi(server: URL, paths: readonly string[], anchor: URL): boolean {
  if (server.origin !== anchor.origin) return false;
  if (baseOf(server) === baseOf(anchor)) return true;
  const anchorPath = trimmed(anchor.pathname);
  return paths.some((path) => within(trimmed(operationPath(server, path)), anchorPath));
}

function withScheme(url: URL, protocol: string): URL {
  const changed = new URL(url);
  changed.protocol = protocol;
  return changed;
}

const describeServer = (server: OpenApiServer): string =>
  !server.declared
    ? `the OpenAPI description's default server ${baseOf(server.url)}/ (it declares no servers, so the document's origin)`
    : trimmed(server.written) === baseOf(server.url)
      ? `OpenAPI server ${baseOf(server.url)}`
      : `OpenAPI server ${server.written} (${baseOf(server.url)})`;

/**
 * Every OpenAPI server is an API the api-catalog names, as an anchor or an `item` (RFC 9727 §4.1). One that differs from
 * a listed API only in scheme (`http://` in the catalog, `https://` for the description) is a caution naming the
 * difference, not a different API; so is the default server of a description that declares none.
 */
export function baseUrlAgreement(
  servers: readonly OpenApiServer[],
  spec: Record<string, unknown>,
  anchors: readonly URL[],
): BaseUrlAgreement {
  const paths = isRecord(spec.paths) ? Object.keys(spec.paths).filter((path) => path.startsWith("/")) : [];
  const agreement: BaseUrlAgreement = { errors: [], cautions: [] };
  for (const server of servers) {
    if (anchors.some((anchor) => namesSameApi(server.url, paths, anchor))) continue;
    const otherScheme = anchors.find(
      (anchor) =>
        anchor.protocol !== server.url.protocol && namesSameApi(withScheme(server.url, anchor.protocol), paths, anchor),
    );
    if (otherScheme !== undefined)
      agreement.cautions.push(
        `${describeServer(server)} differs only in scheme from the api-catalog's ${otherScheme.href} (${server.url.protocol.replace(":", "")} vs ${otherScheme.protocol.replace(":", "")})`,
      );
    // Without `servers` the description states no base URL: the default it implies is a caution, not a contradiction.
    else if (!server.declared)
      agreement.cautions.push(`${describeServer(server)} is not an API the api-catalog lists: declare servers`);
    else agreement.errors.push(`${describeServer(server)} is not an API the api-catalog lists`);
  }
  return agreement;
}
