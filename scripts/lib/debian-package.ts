import { spawnSync } from "node:child_process";

/** Whether this process may install Debian packages: root, with apt-get on PATH. */
export function canInstallDebianPackages(): boolean {
  return process.getuid?.() === 0 && spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0;
}

function aptGet(args: string[]): boolean {
  console.log(`$ apt-get ${args.join(" ")}`);
  const run = spawnSync("apt-get", args, {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return run.status === 0;
}

/**
 * Installs a Debian package (package lists refreshed first), printing each command; true when
 * apt-get succeeded. Ask `canInstallDebianPackages` first.
 */
export function installDebianPackage(name: string): boolean {
  return aptGet(["update", "-qq"]) && aptGet(["install", "-y", "-qq", name]);
}
