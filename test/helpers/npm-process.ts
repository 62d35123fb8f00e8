import { type ChildProcess, spawn } from "node:child_process";

export interface RunningCommand {
  process: ChildProcess;
  /** Everything printed so far, stdout and stderr apart. */
  stdout: () => string;
  stderr: () => string;
  /** Ctrl-C, as a terminal sends it: SIGINT to the whole process group (npm, its shell, the servers). */
  interrupt: () => Promise<number | null>;
}

/**
 * Runs `npm run <script> [-- args]` as a person would in a terminal, in its own process group, and waits until
 * `readyUrl` answers 200 (a first start builds the site, so this may take a minute on a busy machine).
 */
export async function startNpmScript(
  script: string,
  env: NodeJS.ProcessEnv,
  readyUrl: string,
  timeoutMs = 150_000,
  args: readonly string[] = [],
): Promise<RunningCommand> {
  let stdout = "";
  let stderr = "";
  const command = ["run", script, ...(args.length > 0 ? ["--", ...args] : [])];
  const child = spawn("npm", command, { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const interrupt = async () => {
    try {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGINT");
    } catch {
      // the group has gone already
    }
    return exited;
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`npm run ${script} exited with ${child.exitCode}:\n${stdout}${stderr}`);
    try {
      if ((await fetch(readyUrl)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await interrupt();
      throw new Error(`npm run ${script} did not answer ${readyUrl} in time:\n${stdout}${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { process: child, stdout: () => stdout, stderr: () => stderr, interrupt };
}
