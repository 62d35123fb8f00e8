// Publishes a new version of a doc page or policy, keeping the previous one on record:
//   npm run publish -- docs/<path>
//   npm run publish -- policies/<slug>
import { PublishError, publishNewVersion } from "../src/content/publish-fs.ts";

const target = process.argv[2];
if (!target || target === "--help" || target === "-h") {
  console.log(
    "Usage: npm run publish -- docs/<path> | policies/<slug>\n\nArchives the version as last published under content/archive/ and stamps a new version and published_at.\nEdit the page first, then publish, then run npm run content:check and commit both files.",
  );
  process.exit(target ? 0 : 1);
}
try {
  const result = await publishNewVersion(process.cwd(), target);
  console.log(`Published ${result.version} (was ${result.previousVersion}, kept at ${result.archived}).`);
} catch (error) {
  if (!(error instanceof PublishError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
