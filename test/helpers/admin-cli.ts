import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { type ArgsDef, type CommandDef, runCommand } from "citty";
import { vi } from "vitest";
import { entryArgs } from "./entry.ts";

const run = promisify(execFile);

export interface AdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the staff CLI (`npm run admin -- …`) as its own process with `env`; never throws for a non-zero exit. */
export async function runAdmin(env: NodeJS.ProcessEnv, ...args: string[]): Promise<AdminRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...entryArgs("admin"), ...args], {
      env: { ...process.env, NODE_ENV: "test", ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A token issued by staff (`tokens issue`) to a new registration, with these scopes: how an agent gets `monitors:write`. */
export async function issueStaffToken(env: NodeJS.ProcessEnv, name: string, scopes: string): Promise<string> {
  const issued = await runAdmin(env, "tokens", "issue", "--name", name, "--scopes", scopes);
  const token = /Token:\s+(agt_\S+)/.exec(issued.stdout)?.[1];
  if (!token) throw new Error(`no token in: ${issued.stdout}${issued.stderr}`);
  return token;
}

/**
 * Runs one admin command in this process (a fresh Node process per command costs seconds),
 * capturing what it prints. It reads its configuration from `process.env`, as `npm run admin` does.
 */
export async function runAdminCommand<T extends ArgsDef>(command: CommandDef<T>, ...args: string[]): Promise<AdminRun> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi
    .spyOn(console, "log")
    .mockImplementation((...values: unknown[]) => void out.push(values.map(String).join(" ")));
  const error = vi
    .spyOn(console, "error")
    .mockImplementation((...values: unknown[]) => void err.push(values.map(String).join(" ")));
  process.exitCode = undefined;
  try {
    await runCommand(command, { rawArgs: args });
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}
