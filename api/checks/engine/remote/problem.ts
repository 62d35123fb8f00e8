import { z } from "zod";

/** RFC 9457 problem details; every member optional, `status` advisory. */
export const ProblemDetailsSchema = z.object({
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.number().optional(),
  detail: z.string().optional(),
  instance: z.string().optional(),
});
