// Validates all content and lists every problem as `path: field: message`: `npm run content:check`.
import { formatIssue } from "../src/content/issues.ts";
import { loadContent } from "../src/content/load-content.ts";

const root = process.argv[2] ?? process.cwd();
const { content, issues } = loadContent({ root });
for (const issue of issues) console.log(formatIssue(issue));
if (issues.length > 0) {
  console.error(`\n${issues.length} problem(s) found.`);
  process.exitCode = 1;
} else if (content) {
  const count =
    content.docs.length +
    content.policies.length +
    content.articles.length +
    content.records.length +
    content.resources.length +
    content.products.length +
    content.skills.length;
  console.log(
    `Content is valid: ${count} files (${content.docs.length} docs, ${content.products.length} products, ${content.skills.length} skills).`,
  );
}
