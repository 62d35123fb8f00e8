import { z } from "zod";
import { CALENDAR_DATE_PATTERN, SlugSchema, text } from "./common.ts";

const QuestionBase = {
  /** Stable id; answers are keyed by it. */
  id: z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, "must be a lower-case identifier (letters, digits, _)"),
  prompt: text(1, 300),
  /** Explains the question to an agent that is unsure what to answer. */
  help: text(1, 500).optional(),
  required: z.boolean().default(false),
};

const OptionSchema = z.strictObject({ value: SlugSchema, label: text(1, 120) });

export const SurveyQuestionSchema = z.discriminatedUnion("type", [
  z.strictObject({ ...QuestionBase, type: z.literal("single"), options: z.array(OptionSchema).min(2).max(30) }),
  z.strictObject({
    ...QuestionBase,
    type: z.literal("multiple"),
    options: z.array(OptionSchema).min(2).max(30),
    max_choices: z.int().min(1).max(30).optional(),
  }),
  z.strictObject({ ...QuestionBase, type: z.literal("text"), max_length: z.int().min(1).max(5000) }),
  z.strictObject({
    ...QuestionBase,
    type: z.literal("scale"),
    min: z.int(),
    max: z.int(),
    labels: z.strictObject({ min: z.string(), max: z.string() }).optional(),
  }),
  z.strictObject({ ...QuestionBase, type: z.literal("boolean") }),
]);
export type SurveyQuestion = z.infer<typeof SurveyQuestionSchema>;

/** `content/surveys/agent.yaml`: the agent survey's questions. */
export const SurveyFileSchema = z.strictObject({
  /** `agent-survey-YYYY-MM-DD`; answers name the version they answer. */
  version: z
    .string()
    .regex(new RegExp(`^agent-survey-${CALENDAR_DATE_PATTERN}$`), "must look like agent-survey-YYYY-MM-DD"),
  title: text(1, 120),
  description: text(1, 500),
  questions: z.array(SurveyQuestionSchema).min(1).max(50),
});
export type SurveyFile = z.infer<typeof SurveyFileSchema>;
