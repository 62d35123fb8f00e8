import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../helpers/app.ts";

// The service state under steady traffic: read again before it goes stale, so no request ever
// waits for a reading (against a libSQL server, two round trips each second).
let now = 0;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => new Date(now), stateTtlMs: 1_000 });
});
afterAll(() => t?.close());

describe("the service state monitor", () => {
  it("starts the next reading in the background past half a reading's life, and keeps serving the current one", async () => {
    const { monitor } = t.services;
    now = 10_000;
    const first = await monitor.current();
    now = 10_400;
    expect(monitor.peek()).toBe(first);
    now = 10_600;
    expect(monitor.peek()).toBe(first);
    // The reading started at 10,600 completes (a database file answers within milliseconds); it is
    // fresh until 11,600.
    await new Promise((resolve) => setTimeout(resolve, 200));
    now = 11_300;
    const later = monitor.peek();
    expect(later).toBeDefined();
    expect(later).not.toBe(first);
    expect(later?.checkedAt).toBe(new Date(10_600).toISOString());
  });
});
