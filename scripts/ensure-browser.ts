// `npm test` runs this before any test: the browser tests drive Debian's Chromium, never a
// downloaded build. When it is missing, it is installed with apt-get if this process may (root,
// apt-get on PATH), saying so; otherwise the run stops here with one line saying how to install it,
// rather than every browser test failing at launch. Root is never told to use sudo: when its own
// install failed, the line says why (another apt-get or dpkg holding the lock, most often).
import { accessSync, constants } from "node:fs";
import { CHROMIUM_PACKAGE, chromiumPath } from "../src/lib/chromium.ts";
import { canInstallDebianPackages, type InstallOutcome, installDebianPackage } from "./lib/debian-package.ts";

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

const ALTERNATIVE = "or set CHROMIUM_PATH to a Chromium binary.";
const AFTER_INSTALL: Record<InstallOutcome, string> = {
  locked: `npm test needs Debian's ${CHROMIUM_PACKAGE} package, and apt-get could not install it: another apt-get or dpkg holds the package lock. Wait for it to finish and run npm test again, ${ALTERNATIVE}`,
  failed: `npm test needs Debian's ${CHROMIUM_PACKAGE} package, and \`apt-get install -y ${CHROMIUM_PACKAGE}\` failed (its message is above). Fix that and run npm test again, ${ALTERNATIVE}`,
  installed: `apt-get installed ${CHROMIUM_PACKAGE}, but there is still no browser at ${browser}: ${ALTERNATIVE.replace(/^or s/, "S")}`,
};

let outcome: InstallOutcome | undefined;
if (!isExecutable(browser) && canInstallDebianPackages()) {
  console.log(`No browser at ${browser}: installing Debian's ${CHROMIUM_PACKAGE} package with apt-get.`);
  outcome = installDebianPackage(CHROMIUM_PACKAGE);
  if (outcome === "installed" && isExecutable(browser))
    console.log(`Installed ${CHROMIUM_PACKAGE}; the browser tests use ${browser}.`);
}
if (!isExecutable(browser)) {
  console.error(outcome ? AFTER_INSTALL[outcome] : INSTRUCTION);
  process.exit(1);
}
