import { type ChildProcess, spawn } from "node:child_process";

export interface Started {
  url: string;
  child: ChildProcess;
  stop: () => Promise<void>;
  /** Resident memory of the process now, in MB (from /proc). */
  rssMb: () => Promise<number>;
}

/** Starts a Node process and waits until `readyUrl` answers. */
export function startProcess(
  args: string[],
  env: Record<string, string>,
  readyUrl: string,
  url: string,
): Promise<Started> {
  return startCommand(process.execPath, args, env, readyUrl, url);
}

/**
 * Starts any program (nginx, for one) and waits until `readyUrl` answers; its stdout (and stderr,
 * when `outputFd` is given) goes to `outputFd`. `detached`: in a process group of its own, so a
 * Ctrl-C at the terminal reaches only the parent, which stops it in its turn.
 */
export async function startCommand(
  command: string,
  args: string[],
  env: Record<string, string>,
  readyUrl: string,
  url: string,
  outputFd?: number,
  options: { detached?: boolean } = {},
): Promise<Started> {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", outputFd ?? "ignore", outputFd ?? "inherit"],
    detached: options.detached ?? false,
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `${args.join(" ")} ${child.signalCode ? `was killed by ${child.signalCode}` : `exited with ${child.exitCode}`}`,
      );
    try {
      if ((await fetch(readyUrl)).status < 500) break;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${args.join(" ")} did not answer ${readyUrl} within 30 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
    rssMb: async () => {
      const { readFile } = await import("node:fs/promises");
      const status = await readFile(`/proc/${child.pid}/status`, "utf8").catch(() => "");
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return Math.round(kb / 1024);
    },
  };
}
