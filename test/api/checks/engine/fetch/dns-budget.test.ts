import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createResolverLookup } from "../../../../../api/checks/engine/dns/resolver.ts";
import { type HostLookup, TargetNotAllowedError } from "../../../../../api/checks/engine/fetch/address-guard.ts";
import { runReadinessCheck } from "../../../../../api/checks/engine/run-check.ts";
import { defineCheckerSettings } from "../../../../../api/checks/engine/settings.ts";
import type { ReadinessResult } from "../../../../../src/schemas/report.ts";
import { startBareSite } from "../../../../fixtures/sites/bare.ts";
import { type FixtureSite, startFixtureSite } from "../../../../fixtures/sites/serve.ts";
import { type DnsServer, startDnsServer } from "../../../../helpers/dns-server.ts";
import { statusOf } from "../_helpers.ts";

// No scan here may ask real DNS for anything: names resolve through `dns` or not at all.
const noAgentDns = async () => ({ records: [], authenticated: false });

let dns: DnsServer;
let legit: FixtureSite;
/** One lookup for every scan of the file, as one instance of the service has one. */
let lookup: HostLookup;
const legitPort = () => new URL(legit.origin).port;

beforeAll(async () => {
  dns = await startDnsServer({ "legit.test": "127.0.0.1" });
  legit = await startBareSite();
  lookup = createResolverLookup({ servers: [dns.address] });
});
afterAll(async () => {
  await legit.close();
  await dns.close();
});

function check(target: string, allowed: readonly string[], scanBudgetMs?: number): Promise<ReadinessResult> {
  return runReadinessCheck({
    target,
    settings: defineCheckerSettings({
      allowedTargets: allowed,
      siteUrl: "https://agent-ready.test",
      ...(scanBudgetMs === undefined ? {} : { limits: { scanBudgetMs } }),
    }),
    lookup,
    agentDns: noAgentDns,
  });
}

const checkLegit = () => check(`http://legit.test:${legitPort()}`, [`legit.test:${legitPort()}`]);

async function timed<T>(task: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await task();
  return { ms: performance.now() - started, value };
}

describe("the scanner's name lookups", () => {
  it("resolve through c-ares against the name server they are given", async () => {
    expect(await lookup("legit.test")).toEqual([{ address: "127.0.0.1", family: 4 }]);
  });

  it("give up on a name server that never answers after their own time-out, and at once when the scan ends", async () => {
    const slow = await timed(() => lookup("tarpit.test").catch((error: unknown) => error));
    expect(slow.value).toMatchObject({ code: "ETIMEOUT" });
    expect(slow.ms).toBeLessThan(3_000);
    const stopped = await timed(() =>
      lookup("tarpit-2.test", { signal: AbortSignal.timeout(200) }).catch((error: unknown) => error),
    );
    expect(stopped.ms).toBeLessThan(700);
  });
});

describe("checks of names whose name server never answers", () => {
  it("end with the name refused, and leave a legitimate check beside them near its own time", async () => {
    const baseline = await timed(checkLegit);
    expect(statusOf(baseline.value, "http.home-200")).toBe("pass");
    const tarpits = Array.from({ length: 8 }, (_, index) =>
      timed(() => check(`tarpit-${index}.test`, []).catch((error: unknown) => error)),
    );
    const beside = await timed(checkLegit);
    const refused = await Promise.all(tarpits);
    expect(statusOf(beside.value, "http.home-200")).toBe("pass");
    expect(beside.ms).toBeLessThan(Math.max(2 * baseline.ms, baseline.ms + 2_000));
    for (const { value, ms } of refused) {
      expect(value).toBeInstanceOf(TargetNotAllowedError);
      expect((value as TargetNotAllowedError).reason).toBe("unresolvable");
      expect(ms).toBeLessThan(4_000);
    }
  });

  it("never outlive the scan's time budget, the target's own lookup included", async () => {
    const { ms, value } = await timed(() => check("tarpit-budget.test", [], 800).catch((error: unknown) => error));
    expect(value).toBeInstanceOf(TargetNotAllowedError);
    expect((value as TargetNotAllowedError).message).toContain("did not resolve within the scan's time budget");
    expect(ms).toBeLessThan(1_500);
  });
});

describe("a site that redirects every path to a fresh name", () => {
  const BUDGET_MS = 4_000;
  let redirector: FixtureSite;
  beforeAll(async () => {
    let fresh = 0;
    redirector = await startFixtureSite((request, response) => {
      fresh += 1;
      response.writeHead(302, { location: `http://fresh-${fresh}.tarpit.test${request.url ?? "/"}` }).end();
    });
  });
  afterAll(() => redirector.close());

  it("ends within the scan's time budget when the names' server never answers", async () => {
    const { ms, value } = await timed(() => check(redirector.origin, [redirector.hostPort], BUDGET_MS));
    expect(ms).toBeLessThan(BUDGET_MS + 1_500);
    expect(statusOf(value, "http.home-200")).toBe("fail");
  });

  it("ends within the budget even with a lookup that never settles and ignores the scan's signal", async () => {
    const never: HostLookup = (hostname) =>
      hostname === "127.0.0.1" ? Promise.resolve([{ address: hostname, family: 4 }]) : new Promise(() => undefined);
    const started = performance.now();
    await runReadinessCheck({
      target: redirector.origin,
      settings: defineCheckerSettings({
        allowedTargets: [redirector.hostPort],
        siteUrl: "https://agent-ready.test",
        limits: { scanBudgetMs: 2_000 },
      }),
      lookup: never,
      agentDns: noAgentDns,
    });
    expect(performance.now() - started).toBeLessThan(3_500);
  });
});
