import { execFile } from "node:child_process";
import { chmod, chown, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ensure-browser-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, user: { uid?: number; gid?: number } = {}) {
  return new Promise<Run>((resolve) => {
    execFile(command, args, { env, ...user, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const preflight = (env: NodeJS.ProcessEnv) => run(process.execPath, ["scripts/ensure-browser.ts"], env);

/** An apt-get that records its arguments and, asked to install, puts an executable at CHROMIUM_PATH. */
async function standInAptGet(): Promise<{ path: string; calls: () => Promise<string[]> }> {
  const bin = await mkdtemp(join(dir, "bin-"));
  const log = join(bin, "calls.log");
  await writeFile(
    join(bin, "apt-get"),
    `#!/bin/sh\necho "$*" >> "${log}"\nif [ "$1" = install ]; then printf '#!/bin/sh\\n' > "$CHROMIUM_PATH"; /bin/chmod +x "$CHROMIUM_PATH"; fi\n`,
  );
  await chmod(join(bin, "apt-get"), 0o755);
  return { path: bin, calls: async () => (await readFile(log, "utf8").catch(() => "")).split("\n").filter(Boolean) };
}

const INSTRUCTION =
  /^npm test needs Debian's chromium package for its browser tests \(no browser at \/nowhere\/chromium\): install it with `sudo apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium binary\.\n$/;

describe("the browser preflight that npm test runs first", { timeout: 90_000 }, () => {
  it("stops with one line naming the chromium package and its install command when the browser is missing and apt-get is not on PATH", async () => {
    const result = await preflight({ ...process.env, CHROMIUM_PATH: "/nowhere/chromium", PATH: join(dir, "empty") });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(INSTRUCTION);
  });

  it("makes npm test stop before running any test when it may not install (not root)", async () => {
    // Root here (as in CI) would install the browser, so the run drops to an unprivileged user.
    const home = await mkdtemp(join(dir, "home-"));
    const asRoot = process.getuid?.() === 0;
    if (asRoot) await chown(home, 65534, 65534);
    const result = await run(
      "npm",
      ["test", "--", "test/lib"],
      { ...process.env, HOME: home, npm_config_cache: join(home, ".npm"), CHROMIUM_PATH: "/nowhere/chromium" },
      asRoot ? { uid: 65534, gid: 65534 } : {},
    );
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      "npm test needs Debian's chromium package for its browser tests (no browser at /nowhere/chromium): install it with `sudo apt-get install -y chromium`",
    );
    expect(result.stdout).not.toMatch(/RUN|Test Files/);
  });

  it("installs Debian's chromium with apt-get when run as root, printing each command, then lets the tests run", async () => {
    const aptGet = await standInAptGet();
    const browser = join(dir, "installed-chromium");
    const result = await preflight({ ...process.env, CHROMIUM_PATH: browser, PATH: aptGet.path });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        `No browser at ${browser}: installing Debian's chromium package with apt-get.`,
        "$ apt-get update -qq",
        "$ apt-get install -y -qq chromium",
        `Installed chromium; the browser tests use ${browser}.`,
        "",
      ].join("\n"),
    );
    expect(await aptGet.calls()).toEqual(["--version", "update -qq", "install -y -qq chromium"]);
  });

  it("tells root that another apt-get holds the package lock, not to use sudo, when the install cannot take it", async () => {
    const bin = await mkdtemp(join(dir, "locked-bin-"));
    // apt-get's own words (and exit code) while another apt-get runs.
    await writeFile(
      join(bin, "apt-get"),
      `#!/bin/sh\n[ "$1" = --version ] && exit 0\necho "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)" >&2\nexit 100\n`,
    );
    await chmod(join(bin, "apt-get"), 0o755);
    const result = await preflight({ ...process.env, CHROMIUM_PATH: join(dir, "locked-chromium"), PATH: bin });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("$ apt-get update -qq");
    expect(result.stderr).toContain("Could not get lock /var/lib/dpkg/lock-frontend");
    expect(result.stderr).toContain(
      "npm test needs Debian's chromium package, and apt-get could not install it: another apt-get or dpkg holds the package lock. Wait for it to finish and run npm test again, or set CHROMIUM_PATH to a Chromium binary.",
    );
    expect(result.stderr).not.toContain("sudo");
  });

  it("says nothing and installs nothing when the browser is already there", async () => {
    const aptGet = await standInAptGet();
    const browser = join(dir, "present-chromium");
    await writeFile(browser, "#!/bin/sh\n");
    await chmod(browser, 0o755);
    const result = await preflight({ ...process.env, CHROMIUM_PATH: browser, PATH: aptGet.path });
    expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await aptGet.calls()).toEqual([]);
  });
});
