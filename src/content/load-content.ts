import { join, resolve } from "node:path";
import { RoadmapFileSchema } from "../schemas/roadmap.ts";
import { PricingFileSchema, ServiceSettingsSchema } from "../schemas/service.ts";
import { SurveyFileSchema, type SurveyFile } from "../schemas/survey.ts";
import type { ContentIssue } from "./issues.ts";
import { loadArticles, loadRecords, loadResources } from "./load-collections.ts";
import { loadDocs } from "./load-docs.ts";
import { loadYamlFile } from "./load-entries.ts";
import { loadPolicies } from "./load-policies.ts";
import { loadSkills } from "./load-skills.ts";
import { loadCategories, loadProducts } from "./load-store.ts";
import type { Content } from "./model.ts";

export interface LoadResult {
  /** `null` when a file the whole site depends on (service, pricing, survey, roadmap) is missing or invalid. */
  content: Content | null;
  issues: ContentIssue[];
}

export interface LoadOptions {
  /** The project root; content lives in `<root>/content`. */
  root: string;
  /** Where item files live; defaults to `<root>/content/files`. */
  privateFilesDir?: string;
}

/** Loads and validates every piece of content, collecting every problem rather than stopping at the first. */
export function loadContent({ root, privateFilesDir }: LoadOptions): LoadResult {
  const issues: ContentIssue[] = [];
  const contentDir = join(root, "content");
  const filesDir = resolve(privateFilesDir ?? join(contentDir, "files"));
  const service = loadYamlFile(root, join(contentDir, "service.yaml"), ServiceSettingsSchema, issues);
  const pricing = loadYamlFile(root, join(contentDir, "pricing.yaml"), PricingFileSchema, issues);
  const survey = loadYamlFile(root, join(contentDir, "surveys", "agent.yaml"), SurveyFileSchema, issues);
  const roadmap = loadYamlFile(root, join(contentDir, "roadmap.yaml"), RoadmapFileSchema, issues);
  if (survey) checkSurvey(survey, issues);
  const categories = loadCategories(root, contentDir, issues);
  const content = {
    root,
    docs: loadDocs(root, contentDir, issues),
    policies: loadPolicies(root, contentDir, issues),
    articles: loadArticles(root, contentDir, issues),
    records: loadRecords(root, contentDir, issues),
    resources: loadResources(root, contentDir, issues),
    categories,
    products: loadProducts(root, contentDir, filesDir, categories, issues),
    skills: loadSkills(root, contentDir, issues),
    privateFilesDir: filesDir,
  };
  if (!service || !pricing || !survey || !roadmap) return { content: null, issues };
  return { content: { ...content, service, pricing, survey, roadmap }, issues };
}

function checkSurvey(survey: SurveyFile, issues: ContentIssue[]): void {
  const file = "content/surveys/agent.yaml";
  const ids = new Set<string>();
  survey.questions.forEach((question, index) => {
    if (ids.has(question.id)) issues.push({ file, field: `questions.${index}.id`, message: `${question.id} is used twice` });
    ids.add(question.id);
    if (question.type === "single" || question.type === "multiple") {
      const values = question.options.map((option) => option.value);
      if (new Set(values).size !== values.length) {
        issues.push({ file, field: `questions.${index}.options`, message: "option values must be unique" });
      }
    }
    if (question.type === "scale" && question.min >= question.max) {
      issues.push({ file, field: `questions.${index}.max`, message: "must be greater than min" });
    }
  });
}

const cache = new Map<string, Content>();

/**
 * The validated content for a build or a server start, loaded once per root. Throws with every
 * problem listed when the content is invalid, so a broken commit never builds.
 */
export function getContent(root: string = process.cwd()): Content {
  const cached = cache.get(root);
  if (cached) return cached;
  const { content, issues } = loadContent({ root });
  if (!content || issues.length > 0) {
    const lines = issues.map((issue) => `${issue.file}: ${issue.field}: ${issue.message}`);
    throw new Error(`The content has ${issues.length} problem(s):\n${lines.join("\n")}`);
  }
  cache.set(root, content);
  return content;
}
