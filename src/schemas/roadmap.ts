import { z } from "zod";
import { DateSchema, SlugSchema, text } from "./common.ts";

/** Where planned work stands; only `committed` items carry a date. */
export const RoadmapStateSchema = z.enum(["exploring", "planned", "committed", "in-progress", "shipped"]);

export const RoadmapItemSchema = z
  .strictObject({
    id: SlugSchema,
    title: text(1, 120),
    description: text(1, 500),
    state: RoadmapStateSchema,
    /** The date we commit to; required for `committed`, not allowed otherwise. */
    target_date: DateSchema.optional(),
  })
  .superRefine((item, ctx) => {
    if (item.state === "committed" && !item.target_date) {
      ctx.addIssue({ code: "custom", path: ["target_date"], message: "a committed item needs a target date" });
    }
    if (item.state !== "committed" && item.target_date) {
      ctx.addIssue({ code: "custom", path: ["target_date"], message: "only committed items carry a date" });
    }
  });

/** `content/roadmap.yaml`. */
export const RoadmapFileSchema = z.strictObject({
  updated_at: DateSchema,
  items: z.array(RoadmapItemSchema).max(200),
});
export type RoadmapFile = z.infer<typeof RoadmapFileSchema>;
