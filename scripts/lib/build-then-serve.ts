import { type ChildProcess, spawn } from "node:child_process";

// One Node process each (not `npx tsx`, which leaves a parent and a child, so signals miss the server).
const run = (script: string, env: NodeJS.ProcessEnv): ChildProcess =>
  spawn(process.execPath, ["--import", "tsx", script], { stdio: "inherit", env });

/**
 * Builds the site for the configured URL, then starts the server; both print to this terminal.
 * Resolves with the running server, or undefined when the build failed (it has said why).
 */
export async function buildThenServe(env: NodeJS.ProcessEnv = process.env): Promise<ChildProcess | undefined> {
  const build = run("scripts/build.ts", env);
  const code = await new Promise<number | null>((resolve) => build.once("exit", resolve));
  return code === 0 ? run("api/server.ts", env) : undefined;
}
