import { z } from "zod";
import type { Content } from "../../src/content/model.ts";
import { serviceStateDocument } from "../../src/lib/discovery/documents.ts";
import { pricingDocument } from "../../src/lib/discovery/pricing.ts";
import { docIndexEntry, docPage } from "../../src/lib/outputs/docs.ts";
import { policyPage } from "../../src/lib/outputs/policies.ts";
import { productIndexDocument } from "../../src/lib/outputs/store.ts";
import { sortDocs } from "../../src/lib/sidebar.ts";
import { SlugSchema } from "../../src/schemas/common.ts";
import { PricingDocumentSchema, ServiceStateDocumentSchema } from "../../src/schemas/discovery.ts";
import { DocIndexSchema, DocPageSchema, DocPathSchema } from "../../src/schemas/doc.ts";
import { PolicyPageSchema } from "../../src/schemas/policy.ts";
import { ProductIndexSchema } from "../../src/schemas/product.ts";
import { defineTool, READ_ONLY, type Tool } from "../platform/mcp-tool.ts";
import { ApiProblem } from "../platform/problem.ts";

/** Read-only tools over the published content: the same documents the static API serves, from the same functions. */
export function contentTools(content: Content): Tool[] {
  const policySlugs = content.policies.map((policy) => policy.slug).join(", ");
  return [
    defineTool({
      name: "list_docs",
      title: "List documentation pages",
      description:
        "Lists every published documentation page (path, title, description, version). Use it first to find the page that answers a question about the service, then read it with read_doc.",
      operation: "listDocs",
      annotations: READ_ONLY,
      input: z.strictObject({}),
      output: DocIndexSchema,
      run: async (_args, { site }) => ({ data: sortDocs(site.content.docs).map((doc) => docIndexEntry(doc, site)) }),
    }),
    defineTool({
      name: "read_doc",
      title: "Read a documentation page",
      description:
        "Reads one documentation page as Markdown with its version history. Use it when you know the page's path (from list_docs), e.g. to learn how checks, the store or authentication work.",
      operation: "getDoc",
      annotations: READ_ONLY,
      input: z.strictObject({ path: DocPathSchema.describe("The page path from list_docs, e.g. checks/unlock") }),
      output: DocPageSchema,
      run: async ({ path }, { site }) => {
        const doc = site.content.docs.find((entry) => entry.path === path);
        if (!doc) throw new ApiProblem("not-found", `No documentation page at ${path}; list_docs lists them.`);
        return docPage(doc, site);
      },
    }),
    defineTool({
      name: "read_policy",
      title: "Read a policy",
      description: `Reads one published policy (its Markdown, version and where it applies). Use it before submitting a form that needs consent: the privacy policy's version is the consent_version to send. Policies: ${policySlugs}.`,
      operation: "getPolicy",
      annotations: READ_ONLY,
      input: z.strictObject({ slug: SlugSchema.describe(`The policy's slug: ${policySlugs}`) }),
      output: PolicyPageSchema,
      run: async ({ slug }, { site }) => {
        const policy = site.content.policies.find((entry) => entry.slug === slug);
        if (!policy) throw new ApiProblem("not-found", `No policy ${slug}; the policies are ${policySlugs}.`);
        return policyPage(policy, site);
      },
    }),
    defineTool({
      name: "list_products",
      title: "List store products",
      description:
        "Lists the store catalogue: each guide, template or fee with its price in minor units, whether it is on sale and its checkout URL. Use it when asked what can be bought or what something costs.",
      operation: "listProducts",
      annotations: READ_ONLY,
      input: z.strictObject({ category: SlugSchema.optional().describe("Only products of this store category") }),
      output: ProductIndexSchema,
      run: async ({ category }, { site, state }) => productIndexDocument(site, state, category),
    }),
    defineTool({
      name: "service_status",
      title: "Read the service's status",
      description:
        "Reads what is open, on and healthy right now: forms, features, components and the capabilities that are unavailable and why. Use it when a call answered 503, or before starting a task that needs payments or checks.",
      operation: "getServiceState",
      annotations: { ...READ_ONLY, idempotentHint: false },
      input: z.strictObject({}),
      output: ServiceStateDocumentSchema,
      run: async (_args, { site, state }) => serviceStateDocument(site, state),
    }),
    defineTool({
      name: "read_pricing",
      title: "Read prices",
      description:
        "Reads every price the service charges: report unlocks, credit packs and store items, with checkout URLs while checkout works. Use it to answer what a full readiness report or a product costs.",
      operation: "getPricing",
      annotations: READ_ONLY,
      input: z.strictObject({}),
      output: PricingDocumentSchema,
      run: async (_args, { site, state }) => pricingDocument(site, state),
    }),
  ];
}
