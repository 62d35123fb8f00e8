import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectProblem } from "../../helpers/agents.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { siteUrl } from "../../helpers/site.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ allowUnhandledErrors: true });
  // A route that fails the way a bug would, with internals in the error.
  t.app.get("/api/v1/__explode", () => {
    throw new Error("SQLITE_ERROR near SELECT * FROM secrets WHERE token = 'agt_leak'");
  });
});
afterAll(() => t.close());

describe("errors are RFC 9457 problems", () => {
  it("answers 500 without the message, stack or SQL, but with a request id", async () => {
    const response = await t.app.request("/api/v1/__explode", { headers: { "x-request-id": "req-12345678" } });
    const problem = await expectProblem(response, 500, "internal-error");
    const text = JSON.stringify(problem);
    expect(text).not.toMatch(/SQLITE|SELECT|agt_leak|at .*\.ts/);
    expect(problem.request_id).toBe("req-12345678");
    expect(response.headers.get("x-request-id")).toBe("req-12345678");
  });

  it("answers 405 with Allow for a known API path and another method", async () => {
    const response = await t.app.request("/api/v1/agents/waitlist");
    await expectProblem(response, 405, "method-not-allowed");
    expect(response.headers.get("allow")).toBe("POST");
    expect((await t.app.request("/api/v1/agents/me", { method: "DELETE" })).headers.get("allow")).toBe("GET, HEAD");
  });

  it("answers 405 with Allow: POST for the POST-only paths a GET template would capture, never 404 'No such monitor'", async () => {
    for (const path of ["/api/v1/monitors/confirm", "/api/v1/monitors/unsubscribe"]) {
      for (const method of ["GET", "HEAD", "PUT", "DELETE"]) {
        const response = await t.app.request(path, { method });
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.headers.get("allow"), `${method} ${path}`).toBe("POST");
        expect(response.headers.get("ratelimit-policy"), `${method} ${path}`).toMatch(/^"api-misses";/);
        if (method !== "HEAD") {
          const problem = await expectProblem(response, 405, "method-not-allowed");
          expect(problem.detail).toBe(`${path} does not accept ${method}; it takes POST.`);
        }
      }
    }
    // A real monitor id is still read by the template.
    expect((await t.app.request(`/api/v1/monitors/mon_${"x".repeat(43)}`)).status).toBe(404);
  });

  it("gives every problem type a page that explains it", async () => {
    const problem = await expectProblem(await t.send("POST", "/api/v1/waitlist", "{"), 400, "malformed-json");
    const type = new URL(String(problem.type));
    expect(type.origin).toBe(siteUrl());
    const page = await t.app.request(type.pathname);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("The body is not valid JSON");
    const markdown = await t.app.request(type.pathname, { headers: { accept: "text/markdown" } });
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
  });

  it("treats prototype-pollution keys as unknown properties, not as a way in", async () => {
    const body =
      '{"name":"A","email":"a@example.com","consent":true,"consent_version":"privacy-2026-11-01","__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}';
    const problem = await expectProblem(await t.send("POST", "/api/v1/waitlist", body), 422, "validation-failed");
    expect(problem.errors).toEqual([
      { pointer: "#/__proto__", detail: "is not an allowed property" },
      { pointer: "#/constructor", detail: "is not an allowed property" },
    ]);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it("answers a body that is not UTF-8 with 400", async () => {
    const response = await t.app.request("/api/v1/waitlist", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    await expectProblem(response, 400, "malformed-json");
  });
});

describe("an unhandled error in a test", () => {
  it("fails the test that caused it, with the error, instead of passing as a 500", async () => {
    const strict = await createTestApp();
    try {
      strict.app.get("/api/v1/__bug", () => {
        throw new TypeError("Cannot read properties of undefined (reading 'id')");
      });
      await expect(strict.app.request("/api/v1/__bug")).rejects.toThrow(/a 500[\s\S]*reading 'id'/);
    } finally {
      await strict.close();
    }
  });
});
