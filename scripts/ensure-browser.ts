// `npm test` runs this before any test: the browser tests drive Debian's Chromium, never a
// downloaded build. When it is missing, it is installed with apt-get if this process may (root,
// apt-get on PATH), saying so; otherwise the run stops here with one line saying how to install it,
// rather than every browser test failing at launch.
import { accessSync, constants } from "node:fs";
import { CHROMIUM_PACKAGE, chromiumPath } from "../test/helpers/chromium.ts";
import { canInstallDebianPackages, installDebianPackage } from "./lib/debian-package.ts";

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

if (!isExecutable(browser) && canInstallDebianPackages()) {
  console.log(`No browser at ${browser}: installing Debian's ${CHROMIUM_PACKAGE} package with apt-get.`);
  if (installDebianPackage(CHROMIUM_PACKAGE) && isExecutable(browser))
    console.log(`Installed ${CHROMIUM_PACKAGE}; the browser tests use ${browser}.`);
}
if (!isExecutable(browser)) {
  console.error(INSTRUCTION);
  process.exit(1);
}
