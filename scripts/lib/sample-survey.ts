import { getContent } from "../../src/content/load-content.ts";

/** An answer to the agent survey (content/surveys/agent.yaml) that every required question accepts: for tests and benchmarks. */
export function sampleSurveyAnswer(): { survey_version: string; answers: Record<string, unknown> } {
  const { survey } = getContent(process.cwd());
  const answers: Record<string, unknown> = {};
  for (const question of survey.questions.filter((item) => item.required)) {
    if (question.type === "single") answers[question.id] = question.options[0]?.value;
    else if (question.type === "multiple") answers[question.id] = [question.options[0]?.value];
    else if (question.type === "text") answers[question.id] = "Reading documentation";
    else if (question.type === "scale") answers[question.id] = question.min;
    else answers[question.id] = true;
  }
  return { survey_version: survey.version, answers };
}
