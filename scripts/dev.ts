// Local development: build, then serve. Run through `npm run dev`, which restarts this script
// (rebuilding) whenever content/, src/ or api/ changes.
import { spawn } from "node:child_process";

const build = spawn(process.execPath, ["--import", "tsx", "scripts/build.ts"], { stdio: "inherit" });
build.on("exit", (code) => {
  if (code !== 0) {
    console.error("Build failed; fix the problem above and save again.");
    return;
  }
  const server = spawn(process.execPath, ["--import", "tsx", "api/server.ts"], { stdio: "inherit" });
  const stop = () => server.kill("SIGTERM");
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
});
