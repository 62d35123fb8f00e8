import type { Content, Entry } from "./model.ts";

export interface PublicUrls {
  siteUrl: string;
  docsUrl: string;
}

const resolved = new WeakMap<Content, Map<string, Content>>();

/**
 * Staff write `{{SITE_URL}}` and `{{DOCS_URL}}` in Markdown where an example needs the service's own
 * address (`export BASE={{SITE_URL}}`, `"type": "{{SITE_URL}}/problems/sold-out"`). This is the content
 * with both filled in, in every body (skills' raw bytes included): the build and the server use it, so
 * no example names another address than the one being served (`\{{SITE_URL}}` writes the placeholder
 * itself). Computed once per URL pair.
 */
export function withSiteUrls(content: Content, urls: PublicUrls): Content {
  const key = `${urls.siteUrl}\n${urls.docsUrl}`;
  const known = resolved.get(content) ?? new Map<string, Content>();
  resolved.set(content, known);
  const cached = known.get(key);
  if (cached) return cached;
  // `\{{SITE_URL}}` stays as the placeholder itself (without the backslash), for the page that explains it.
  const fill = (text: string) =>
    text.replace(/(\\?)\{\{(SITE_URL|DOCS_URL)\}\}/g, (_match, escaped: string, name: string) =>
      escaped ? `{{${name}}}` : name === "SITE_URL" ? urls.siteUrl : urls.docsUrl,
    );
  const entry = <T extends Entry<unknown>>(item: T): T => ({ ...item, body: fill(item.body) });
  const filled: Content = {
    ...content,
    docs: content.docs.map((doc) => ({ ...entry(doc), archive: doc.archive.map(entry) })),
    policies: content.policies.map((policy) => ({ ...entry(policy), archive: policy.archive.map(entry) })),
    articles: content.articles.map(entry),
    records: content.records.map(entry),
    resources: content.resources.map(entry),
    products: content.products.map(entry),
    skills: content.skills.map((skill) => ({ ...entry(skill), raw: Buffer.from(fill(skill.raw.toString("utf8"))) })),
  };
  known.set(key, filled);
  return filled;
}
