// `npm test` runs this before any test: the browser tests drive Debian's Chromium, never a
// downloaded build. When it is missing, it is installed with apt-get if this process may (root,
// apt-get on PATH), saying so; otherwise the run stops here with one line saying how to install it,
// rather than every browser test failing at launch.
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { CHROMIUM_PACKAGE, chromiumPath } from "../test/helpers/chromium.ts";

const browser = chromiumPath(process.env);
const INSTRUCTION = `npm test needs Debian's ${CHROMIUM_PACKAGE} package for its browser tests (no browser at ${browser}): install it with \`sudo apt-get install -y ${CHROMIUM_PACKAGE}\`, or set CHROMIUM_PATH to a Chromium binary.`;

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function canInstall(): boolean {
  const isRoot = process.getuid?.() === 0;
  return isRoot && spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0;
}

function aptGet(args: string[]): boolean {
  console.log(`$ apt-get ${args.join(" ")}`);
  const run = spawnSync("apt-get", args, {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return run.status === 0;
}

if (!isExecutable(browser) && canInstall()) {
  console.log(`No browser at ${browser}: installing Debian's ${CHROMIUM_PACKAGE} package with apt-get.`);
  if (aptGet(["update", "-qq"]) && aptGet(["install", "-y", "-qq", CHROMIUM_PACKAGE]) && isExecutable(browser))
    console.log(`Installed ${CHROMIUM_PACKAGE}; the browser tests use ${browser}.`);
}
if (!isExecutable(browser)) {
  console.error(INSTRUCTION);
  process.exit(1);
}
