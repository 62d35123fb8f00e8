import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface AdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the staff CLI (`npm run admin -- …`) as its own process with `env`; never throws for a non-zero exit. */
export async function runAdmin(env: NodeJS.ProcessEnv, ...args: string[]): Promise<AdminRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], { env: { ...process.env, NODE_ENV: "test", ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
