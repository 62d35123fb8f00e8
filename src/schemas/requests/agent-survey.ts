import { z } from "zod";
import { boundedArray, text } from "../common.ts";
import type { SurveyFile, SurveyQuestion } from "../survey.ts";

/**
 * The body of `POST /api/v1/agents/survey`, built from `content/surveys/agent.yaml`: the answers
 * object has one optional (or required) property per question, typed by the question.
 */
export function buildAgentSurveySchema(survey: SurveyFile) {
  const answers: Record<string, z.ZodType> = {};
  for (const question of survey.questions) {
    const schema = answerSchema(question).meta({ description: question.prompt });
    answers[question.id] = question.required ? schema : schema.optional();
  }
  return z
    .strictObject({
      /** Must be the survey's current version. */
      survey_version: z.literal(survey.version, `must be ${survey.version}, the current survey`),
      answers: z.strictObject(answers),
    })
    .meta({ title: survey.title });
}

function answerSchema(question: SurveyQuestion): z.ZodType {
  switch (question.type) {
    case "single":
      return z.enum(question.options.map((option) => option.value) as [string, ...string[]]);
    case "multiple": {
      const option = z.enum(question.options.map((item) => item.value) as [string, ...string[]]);
      return boundedArray(option, 1, question.max_choices ?? question.options.length, "choices");
    }
    case "text":
      return text(1, question.max_length, { paragraphs: true });
    case "scale":
      return z.int().min(question.min).max(question.max);
    case "boolean":
      return z.boolean();
  }
}
