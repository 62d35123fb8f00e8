import { spawnSync } from "node:child_process";

/** Whether this process may install Debian packages: root, with apt-get on PATH. */
export function canInstallDebianPackages(): boolean {
  return process.getuid?.() === 0 && spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0;
}

/** How an install went: done, refused because another apt-get or dpkg holds the package lock, or failed otherwise. */
export type InstallOutcome = "installed" | "locked" | "failed";

// apt-get's words when another process holds /var/lib/dpkg/lock-frontend (or lock, or the lists' lock).
const LOCK_HELD = /Could not get lock|Unable to acquire the dpkg frontend lock|Unable to lock directory/;

function aptGet(args: string[]): InstallOutcome {
  console.log(`$ apt-get ${args.join(" ")}`);
  // Its errors are passed through as they come, and kept, to tell a held lock from a real failure.
  const run = spawnSync("apt-get", args, {
    stdio: ["ignore", "inherit", "pipe"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  const errors = run.stderr?.toString() ?? "";
  process.stderr.write(errors);
  if (run.status === 0) return "installed";
  return LOCK_HELD.test(errors) ? "locked" : "failed";
}

/**
 * Installs a Debian package (package lists refreshed first), printing each command. Ask
 * `canInstallDebianPackages` first.
 */
export function installDebianPackage(name: string): InstallOutcome {
  const updated = aptGet(["update", "-qq"]);
  return updated === "installed" ? aptGet(["install", "-y", "-qq", name]) : updated;
}
