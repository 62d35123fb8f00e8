/** Every public path the site publishes, in one place, so pages, files and discovery agree. */
export const paths = {
  docsHome: () => "/docs",
  doc: (path: string) => `/docs/${path}`,
  docMarkdown: (path: string) => `/docs/${path}.md`,
  docJson: (path: string) => `/api/v1/docs/${path}`,
  archivedDoc: (key: string, version: string) => `/archive/docs/${key}/${version}`,
  archivedDocMarkdown: (key: string, version: string) => `/archive/docs/${key}/${version}.md`,
  archivedDocJson: (key: string, version: string) => `/api/v1/archive/docs/${key}/${version}`,
  policy: (slug: string) => `/policies/${slug}`,
  policyMarkdown: (slug: string) => `/policies/${slug}.md`,
  policyJson: (slug: string) => `/api/v1/policies/${slug}`,
  archivedPolicy: (key: string, version: string) => `/archive/policies/${key}/${version}`,
  archivedPolicyJson: (key: string, version: string) => `/api/v1/archive/policies/${key}/${version}`,
  article: (slug: string) => `/articles/${slug}`,
  articleMarkdown: (slug: string) => `/articles/${slug}.md`,
  articleJson: (slug: string) => `/api/v1/articles/${slug}`,
  record: (slug: string) => `/records/${slug}`,
  recordJson: (slug: string) => `/api/v1/records/${slug}`,
  product: (id: string) => `/store/${id}`,
  productMarkdown: (id: string) => `/store/${id}.md`,
  /** The cover the build draws for a product from its title and category (src/lib/product-cover.ts). */
  productCover: (id: string) => `/store/covers/${id}.svg`,
  productCheckout: (id: string) => `/api/v1/store/${id}/checkout`,
  problem: (code: string) => `/problems/${code}`,
  schema: (name: string) => `/schemas/${name}.json`,
  skill: (slug: string) => `/.well-known/agent-skills/${slug}/SKILL.md`,
  /** The crawler's Web Bot Auth key directory (draft-ietf-webbotauth-httpsig-protocol-01 §8.1). */
  keyDirectory: () => "/.well-known/http-message-signatures-directory",
} as const;

/** Joins a base URL (no trailing slash) and a site path. */
export function absolute(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}${path}`;
}
