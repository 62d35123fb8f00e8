// Local development: build, then serve. Run through `npm run dev`, which restarts this script
// (rebuilding) whenever content/, src/ or api/ changes.
import { buildThenServe } from "./lib/build-then-serve.ts";

const server = await buildThenServe();
if (!server) {
  console.error("Build failed; fix the problem above and save again.");
} else {
  const stop = () => server.kill("SIGTERM");
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
