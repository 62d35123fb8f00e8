import { type ChildProcess, spawn } from "node:child_process";
import { BUILD_NODE_ARGS } from "./build-node-args.ts";

// One Node process each, started directly (not through npm or npx, which leave a parent, so signals miss the server).
const run = (args: readonly string[], env: NodeJS.ProcessEnv): ChildProcess =>
  spawn(process.execPath, args, { stdio: "inherit", env });

/**
 * Builds the site for the configured URL, then starts the server; both print to this terminal.
 * Resolves with the running server, or undefined when the build failed (it has said why).
 */
export async function buildThenServe(env: NodeJS.ProcessEnv = process.env): Promise<ChildProcess | undefined> {
  const build = run([...BUILD_NODE_ARGS, "scripts/build.ts"], env);
  const code = await new Promise<number | null>((resolve) => build.once("exit", resolve));
  return code === 0 ? run(["api/server.ts"], env) : undefined;
}
