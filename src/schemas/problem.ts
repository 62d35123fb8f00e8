import { z } from "zod";

/** One violation in a 422: where (a JSON Pointer into the request body, in URI-fragment form) and what. */
export const ProblemViolationSchema = z.strictObject({
  pointer: z.string().regex(/^#(\/.*)?$/),
  detail: z.string(),
});

/** RFC 9457 problem details, as every 4xx/5xx of the API answers. */
export const ProblemSchema = z
  .looseObject({
    type: z.url(),
    title: z.string().min(1),
    status: z.int().min(400).max(599),
    detail: z.string(),
    instance: z.string(),
    /** Stable machine code; the last segment of `type`. */
    code: z.string().regex(/^[a-z][a-z0-9-]*$/),
    errors: z.array(ProblemViolationSchema).optional(),
    request_id: z.string().optional(),
  })
  .meta({ title: "Problem details (RFC 9457)" });
export type Problem = z.infer<typeof ProblemSchema>;
