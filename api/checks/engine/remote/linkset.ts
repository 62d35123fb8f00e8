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

export interface Linkset {
  contexts: LinkContext[];
  issues: string[];
}

/** Reads `{"linkset": [...]}` (RFC 9264 §4.2), resolving hrefs against the document URL and noting shape errors. */
export function parseLinkset(value: unknown, documentUrl: string): Linkset {
  const issues: string[] = [];
  if (!isRecord(value) || !Array.isArray(value.linkset))
    return { contexts: [], issues: ['the body is not {"linkset": [...]}'] };
  const extra = Object.keys(value).filter((key) => key !== "linkset");
  if (extra.length > 0) issues.push(`unexpected top-level member(s): ${extra.join(", ")}`);
  const contexts: LinkContext[] = [];
  value.linkset.forEach((raw: unknown, index: number) => {
    if (!isRecord(raw)) {
      issues.push(`linkset[${index}] is not an object`);
      return;
    }
    const anchor = typeof raw.anchor === "string" ? raw.anchor : null;
    if (anchor === null) issues.push(`linkset[${index}] has no anchor`);
    else if (!URL.canParse(anchor)) issues.push(`linkset[${index}].anchor "${anchor}" is not an absolute URI`);
    const relations: LinkContext["relations"] = [];
    for (const [rel, targets] of Object.entries(raw)) {
      if (rel === "anchor") continue;
      if (!Array.isArray(targets)) {
        issues.push(`linkset[${index}].${rel} is not an array of target objects`);
        continue;
      }
      const parsedTargets: LinkContext["relations"][number]["targets"] = [];
      targets.forEach((target: unknown, targetIndex: number) => {
        const parsed = LinkTargetSchema.safeParse(target);
        if (!parsed.success) {
          issues.push(
            `linkset[${index}].${rel}[${targetIndex}]: ${parsed.error.issues[0]?.message ?? "invalid"} (${parsed.error.issues[0]?.path.join(".") ?? ""})`,
          );
          return;
        }
        try {
          parsedTargets.push({ ...parsed.data, resolved: new URL(parsed.data.href, anchor ?? documentUrl).href });
        } catch {
          issues.push(`linkset[${index}].${rel}[${targetIndex}].href "${parsed.data.href}" is not a URI reference`);
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
