import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ScanFetcher } from "../../../../../api/checks/engine/fetch/fetcher.ts";
import { isSiteFault, ScanFetchError } from "../../../../../api/checks/engine/fetch/scan-fetch-error.ts";
import { startHostileSite } from "../../../../fixtures/sites/hostile.ts";
import type { FixtureSite } from "../../../../fixtures/sites/serve.ts";
import { noDns, settingsFor } from "../_helpers.ts";

let site: FixtureSite;
const fetchers: ScanFetcher[] = [];

beforeAll(async () => {
  site = await startHostileSite();
});
afterAll(() => site.close());
afterEach(async () => {
  await Promise.all(fetchers.splice(0).map((fetcher) => fetcher.close()));
});

function fetcherFor(limits: Parameters<typeof settingsFor>[1] = {}): ScanFetcher {
  const fetcher = new ScanFetcher({ settings: settingsFor(site, limits), lookup: noDns });
  fetchers.push(fetcher);
  return fetcher;
}

async function failure(promise: Promise<unknown>): Promise<ScanFetchError> {
  const error: unknown = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ScanFetchError)) throw new Error(`expected a ScanFetchError, got ${String(error)}`);
  return error;
}

describe("ScanFetcher", () => {
  it("follows at most 3 redirects and hands back the 4th answer unfollowed, marked as a redirect limit", async () => {
    const before = site.requests.length;
    const { response } = await fetcherFor().fetch({ url: `${site.origin}/hop/0` });
    expect(response.status).toBe(302);
    expect(response.redirects.map((url) => new URL(url).pathname)).toEqual(["/hop/1", "/hop/2", "/hop/3"]);
    expect(response.fault).toEqual({
      kind: "redirect-limit",
      message: `${site.origin}/hop/0 still redirects after 3 hops, the most the scan follows`,
    });
    expect(site.requests.length - before).toBe(4);
  });

  it("stops at the first hop of a redirect loop and says it is a loop", async () => {
    const before = site.requests.length;
    const { response } = await fetcherFor().fetch({ url: `${site.origin}/loop/a` });
    expect(response.fault?.message).toBe(
      `${site.origin}/loop/b redirects back to ${site.origin}/loop/a: a redirect loop`,
    );
    expect(site.requests.length - before).toBe(2);
  });

  it("does not follow a redirect from an allow-listed site to a private address, and keeps the redirect as evidence", async () => {
    const fetcher = fetcherFor();
    const { response } = await fetcher.fetch({ url: `${site.origin}/to-private` });
    expect(response.status).toBe(302);
    expect(response.fault).toEqual({
      kind: "redirect-refused",
      message: `${site.origin}/to-private redirects to http://10.0.0.1/, which no public client may reach: 10.0.0.1 is a private address (RFC 1918)`,
    });
    expect(fetcher.requestCount).toBe(1);
  });

  it("does not follow a redirect to an IPv6 address that embeds a link-local IPv4 address, and says why", async () => {
    const to = encodeURIComponent("http://[::169.254.169.254]/latest/meta-data/");
    const fetcher = fetcherFor();
    const { response } = await fetcher.fetch({ url: `${site.origin}/to-private?to=${to}` });
    expect(response.status).toBe(302);
    expect(response.fault).toEqual({
      kind: "redirect-refused",
      message: `${site.origin}/to-private?to=${to} redirects to http://[::a9fe:a9fe]/latest/meta-data/, which no public client may reach: ::a9fe:a9fe is an IPv4-compatible form of 169.254.169.254, a link-local address (this range holds cloud metadata services)`,
    });
    expect(fetcher.requestCount).toBe(1);
  });

  it("refuses a redirect to a loopback port that is not allow-listed", async () => {
    const error = await failure(fetcherFor().fetch({ url: `${site.origin}/to-port?port=1` }));
    expect(error.kind).toBe("target-not-allowed");
    expect(error.message).toBe("refused http://127.0.0.1:1/: port 1 is not checked: only 80 and 443 are");
  });

  it("counts the size cap in decompressed bytes, stops reading a gzip bomb and keeps what it read", async () => {
    const { response } = await fetcherFor().fetch({ url: `${site.origin}/bomb` });
    expect(response.fault?.kind).toBe("too-large");
    expect(response.fault?.message).toMatch(
      /is larger than the scan's 1 MB cap once decompressed \(Content-Encoding: gzip, 5 kB on the wire\): a decompression bomb/,
    );
    expect(response.body.length).toBe(1_000_000);
  });

  it("marks a body that is not UTF-8 with the offset of its first bad byte", async () => {
    const { response } = await fetcherFor().fetch({ url: `${site.origin}/latin1` });
    expect(response.invalidUtf8At).toBe(6);
    const clean = await fetcherFor().fetch({ url: `${site.origin}/page` });
    expect(clean.response.invalidUtf8At).toBeNull();
  });

  it("gives up on a request that does not answer in time, and blames the site for it", async () => {
    const error = await failure(fetcherFor({ requestTimeoutMs: 200 }).fetch({ url: `${site.origin}/hang` }));
    expect(error.kind).toBe("timeout");
    expect(isSiteFault(error)).toBe(true);
  });

  it("refuses requests beyond the per-scan budget without sending them", async () => {
    const fetcher = fetcherFor({ maxRequests: 2 });
    await fetcher.fetch({ url: `${site.origin}/a` });
    await fetcher.fetch({ url: `${site.origin}/b` });
    const before = site.requests.length;
    const error = await failure(fetcher.fetch({ url: `${site.origin}/c` }));
    expect(error.kind).toBe("request-budget");
    expect(isSiteFault(error)).toBe(false);
    expect(site.requests.length).toBe(before);
    expect(fetcher.requestCount).toBe(2);
  });

  it("refuses link samples once only the reserved end of the budget is left, but still sends essential requests", async () => {
    const fetcher = fetcherFor({ maxRequests: 4, sampleReserve: 2 });
    await fetcher.fetch({ url: `${site.origin}/s1`, sample: true });
    await fetcher.fetch({ url: `${site.origin}/s2`, sample: true });
    const error = await failure(fetcher.fetch({ url: `${site.origin}/s3`, sample: true }));
    expect(error.kind).toBe("request-budget");
    expect(error.message).toMatch(/last 2 requests of the budget are kept for essential checks/);
    await expect(fetcher.fetch({ url: `${site.origin}/essential` })).resolves.toMatchObject({ reused: false });
    expect(fetcher.requestCount).toBe(3);
  });

  it("sends an essential request for a URL whose link sample the budget refused, instead of repeating the refusal", async () => {
    const fetcher = fetcherFor({ maxRequests: 4, sampleReserve: 2 });
    await fetcher.fetch({ url: `${site.origin}/s1`, sample: true });
    await fetcher.fetch({ url: `${site.origin}/s2`, sample: true });
    await failure(fetcher.fetch({ url: `${site.origin}/twin.md`, sample: true }));
    await expect(fetcher.fetch({ url: `${site.origin}/twin.md` })).resolves.toMatchObject({ reused: false });
    expect(site.requests.filter((request) => request.path === "/twin.md")).toHaveLength(1);
  });

  it("keeps one request for each planned check's first sample, so other checks' samples cannot starve it", async () => {
    const fetcher = fetcherFor({ maxRequests: 6, sampleReserve: 2 });
    fetcher.budget.planSamples(2);
    await fetcher.fetch({ url: `${site.origin}/s1`, sample: true });
    await fetcher.fetch({ url: `${site.origin}/s2`, sample: true });
    const shared = await failure(fetcher.fetch({ url: `${site.origin}/s3`, sample: true }));
    expect(shared.message).toMatch(/kept for essential checks \(and 2 more are kept for checks' first sample\)/);
    let claims = 0;
    const firstSample = (): boolean => claims++ === 0;
    await expect(fetcher.fetch({ url: `${site.origin}/m1`, sample: true, firstSample })).resolves.toMatchObject({
      reused: false,
    });
    const second = await failure(fetcher.fetch({ url: `${site.origin}/m2`, sample: true, firstSample }));
    expect(second.kind).toBe("request-budget");
    expect(fetcher.requestCount).toBe(3);
  });

  it("keeps each planned check's first sample from essential fetches too, past the essential reserve", async () => {
    // A hold-out site's shape: essential fetches used the budget up to the reserve before two checks sampled, and
    // their first samples were refused with a third of the budget unused.
    const fetcher = fetcherFor({ maxRequests: 5, sampleReserve: 2 });
    fetcher.budget.planSamples(1);
    for (const path of ["/e1", "/e2", "/e3", "/e4"]) await fetcher.fetch({ url: `${site.origin}${path}` });
    const essential = await failure(fetcher.fetch({ url: `${site.origin}/e5` }));
    expect(essential.message).toMatch(/kept \(1 more is kept for checks' first sample\)/);
    let claims = 0;
    const firstSample = (): boolean => claims++ === 0;
    await expect(fetcher.fetch({ url: `${site.origin}/m1`, sample: true, firstSample })).resolves.toMatchObject({
      reused: false,
    });
    expect(fetcher.requestCount).toBe(5);
  });

  it("counts the redirect hops of a check's first sample as part of it, not as more samples", async () => {
    const fetcher = fetcherFor({ maxRequests: 6, sampleReserve: 2 });
    fetcher.budget.planSamples(1);
    for (const path of ["/e1", "/e2", "/e3", "/e4"]) await fetcher.fetch({ url: `${site.origin}${path}` });
    let claims = 0;
    const firstSample = (): boolean => claims++ === 0;
    const { response } = await fetcher.fetch({
      url: `${site.origin}/to-private?to=/page`,
      sample: true,
      firstSample,
    });
    expect(response.status).toBe(200);
    expect(response.redirects.map((url) => new URL(url).pathname)).toEqual(["/page"]);
    expect(fetcher.requestCount).toBe(6);
  });

  it("lets a sample the essential reserve held back use what is left once the essential fetches are done, but the last 4", async () => {
    const fetcher = fetcherFor({ maxRequests: 10, sampleReserve: 6 });
    for (const path of ["/s1", "/s2", "/s3", "/s4"])
      await fetcher.fetch({ url: `${site.origin}${path}`, sample: true });
    await failure(fetcher.fetch({ url: `${site.origin}/s5`, sample: true }));
    expect(fetcher.budget.roomAfterEssentials).toBe(true);
    await fetcher.fetch({ url: `${site.origin}/s5`, sample: true, afterEssentials: true });
    await fetcher.fetch({ url: `${site.origin}/s6`, sample: true, afterEssentials: true });
    expect(fetcher.budget.roomAfterEssentials).toBe(false);
    const kept = await failure(fetcher.fetch({ url: `${site.origin}/s7`, sample: true, afterEssentials: true }));
    expect(kept.message).toMatch(/the last 4 are kept for what samples name/);
    // A check woken from its samples still reads what they named (schemas.valid: the schemas its documents point at).
    for (const path of ["/e1", "/e2", "/e3", "/e4"]) await fetcher.fetch({ url: `${site.origin}${path}` });
    const spent = await failure(fetcher.fetch({ url: `${site.origin}/e5` }));
    expect(spent.message).toMatch(/budget of 10 requests is spent/);
  });

  it("answers repeated requests from its cache, and other Accepts too when the response does not vary on Accept", async () => {
    const fetcher = fetcherFor();
    const first = await fetcher.fetch({ url: `${site.origin}/page`, headers: { accept: "text/html" } });
    const again = await fetcher.fetch({ url: `${site.origin}/page`, headers: { accept: "text/html" } });
    const other = await fetcher.fetch({ url: `${site.origin}/page`, headers: { accept: "application/json" } });
    const exact = await fetcher.fetch({
      url: `${site.origin}/page`,
      headers: { accept: "text/markdown" },
      exact: true,
    });
    expect([first.reused, again.reused, other.reused, exact.reused]).toEqual([false, true, true, false]);
    expect(fetcher.requestCount).toBe(2);
  });

  it("never reaches a name the injected lookup resolves to a private address", async () => {
    const fetcher = new ScanFetcher({
      settings: settingsFor(site),
      lookup: async () => [{ address: "192.168.0.10", family: 4 }],
    });
    fetchers.push(fetcher);
    const error = await failure(fetcher.fetch({ url: "https://internal.example/" }));
    expect(error.message).toBe(
      "refused https://internal.example/: internal.example resolves to 192.168.0.10 is a private address (RFC 1918)",
    );
    expect(fetcher.requestCount).toBe(0);
  });

  it("sends its own User-Agent", async () => {
    await fetcherFor().fetch({ url: `${site.origin}/ua` });
    expect(site.requests.at(-1)?.userAgent).toBe("AgentReadyBot/1.0 (+https://agent-ready.test/docs/checks/crawler)");
  });
});
