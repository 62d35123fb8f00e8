import { beforeAll, describe, expect, it } from "vitest";
import { capByMaturity, fail, pass } from "../../../../api/checks/engine/check-types.ts";
import { cardShape } from "../../../../api/checks/engine/documents/mcp.ts";
import { twinCandidates } from "../../../../api/checks/engine/documents/pages.ts";
import { autosubmitRisk } from "../../../../api/checks/engine/suite/agent-interfaces/webmcp.ts";
import { signingPayload } from "../../../../api/checks/engine/suite/capabilities/a2a.ts";
import {
  namespaceDomain,
  namespaceFits,
  proofProblem,
} from "../../../../api/checks/engine/suite/capabilities/mcp-registry.ts";
import { covers } from "../../../../api/checks/engine/suite/discovery/llms.ts";
import { contradictions, readSignals, readUsage } from "../../../../api/checks/engine/suite/policy/aipref.ts";
import type { ReadinessResult } from "../../../../src/schemas/report.ts";
import { listCorpusSites } from "../../../fixtures/sites/corpus.ts";
import { checkCorpusSite } from "../../../fixtures/sites/corpus-run.ts";
import { messageOf, statusOf } from "./_helpers.ts";

/** The two corpus sites built for the 2026 specifications: each new check passing on one, failing on the other. */
describe("the 2026 specifications on the agent-store corpus sites", () => {
  let good: ReadinessResult;
  let broken: ReadinessResult;
  beforeAll(async () => {
    const sites = listCorpusSites();
    const site = (name: string) => {
      const found = sites.find((candidate) => candidate.name === name);
      if (found === undefined) throw new Error(`no corpus site ${name}`);
      return found;
    };
    [good, broken] = await Promise.all([
      checkCorpusSite(site("agent-store")),
      checkCorpusSite(site("agent-store-broken")),
    ]);
  }, 120_000);

  it("accepts a registry server.json of schema 2025-12-11 as the server card, whose name is the domain's namespace", () => {
    expect(statusOf(good, "mcp.card")).toBe("pass");
    expect(statusOf(good, "mcp.registry")).toBe("pass");
    expect(messageOf(good, "mcp.registry")).toMatch(/fits pets\.ydb-qdrant\.tech; a well-formed registry proof/);
  });

  it("fails a server card that names another domain's registry namespace", () => {
    expect(statusOf(broken, "mcp.registry")).toBe("fail");
    expect(messageOf(broken, "mcp.registry")).toMatch(
      /namespace of pets\.ydb-qdrant\.tech, which agents\.example\.net cannot prove/,
    );
  });

  it("verifies a signed A2A card with the key its jku names, and fails one changed after signing", () => {
    expect(statusOf(good, "a2a.card")).toBe("pass");
    expect(messageOf(good, "a2a.card")).toMatch(/1 JWS signature\(s\) verified/);
    expect(statusOf(broken, "a2a.card")).toBe("fail");
    expect(messageOf(broken, "a2a.card")).toMatch(/does not verify over the RFC 8785 form of the card/);
  });

  it("passes ACP discovery whose API answers a stranger 401 with the flat error, and only warns on a broken document", () => {
    expect(statusOf(good, "commerce.acp")).toBe("pass");
    expect(messageOf(good, "commerce.acp")).toMatch(/without a token answers 401/);
    expect(statusOf(broken, "commerce.acp")).toBe("warn");
    expect(messageOf(broken, "commerce.acp")).toMatch(/merchant identifiers: merchant/);
    expect(messageOf(broken, "commerce.acp")).toMatch(/a proposal, so at most a warning/);
  });

  it("reads an x402 v2 requirement from the PAYMENT-REQUIRED header, and fails one written with v1's fields", () => {
    expect(statusOf(good, "commerce.x402")).toBe("pass");
    expect(messageOf(good, "commerce.x402")).toMatch(/402 with an x402 v2 \(PAYMENT-REQUIRED header\)/);
    expect(statusOf(broken, "commerce.x402")).toBe("fail");
    expect(messageOf(broken, "commerce.x402")).toMatch(/accepts\.0\.amount/);
  });

  it("reports Content-Usage that contradicts Content-Signal, naming the most restrictive as the winner", () => {
    expect(statusOf(good, "policy.content-usage")).toBe("pass");
    expect(statusOf(broken, "policy.content-usage")).toBe("warn");
    expect(messageOf(broken, "policy.content-usage")).toMatch(
      /train-ai: robots\.txt allows it, Content-Signal disallows it, so it is disallowed/,
    );
  });

  it("warns on toolautosubmit on a checkout form, not on a search form", () => {
    expect(statusOf(good, "webmcp.valid")).toBe("pass");
    expect(statusOf(broken, "webmcp.valid")).toBe("warn");
    expect(messageOf(broken, "webmcp.valid")).toMatch(/toolautosubmit on a payment form/);
  });

  it("follows the homepage's rel=describedby to its llms.txt, and warns when that file does not cover the page", () => {
    expect(statusOf(good, "llms.describedby")).toBe("pass");
    expect(statusOf(broken, "llms.exists")).toBe("pass");
    expect(messageOf(broken, "llms.exists")).toMatch(/\/docs\/llms\.txt answers 200/);
    expect(statusOf(broken, "llms.describedby")).toBe("warn");
    expect(messageOf(broken, "llms.describedby")).toMatch(/\/ names \/docs\/llms\.txt, which does not cover it/);
  });
});

describe("the 2026 checks' rules", () => {
  it("never lets a proposal fail a site: a fail becomes a warn that says why", () => {
    expect(capByMaturity("proposal", fail("broken"))).toMatchObject({ status: "warn", message: /a proposal/ });
    expect(capByMaturity("draft", fail("broken")).status).toBe("fail");
    expect(capByMaturity("proposal", pass("fine")).status).toBe("pass");
  });

  it("reads MCP registry proofs as the registry does", () => {
    expect(proofProblem("v=MCPv1; k=ed25519; p=hf1UAXtYZTedJy3YtpjRYpB6IZRoZKEyzHJ+Wc/uxrc=")).toBeNull();
    const hex = Buffer.from("hf1UAXtYZTedJy3YtpjRYpB6IZRoZKEyzHJ+Wc/uxrc=", "base64").toString("hex");
    expect(proofProblem(`v=MCPv1; k=ed25519; p=${hex}`)).toMatch(
      /64 hex digits: the registry reads the 32-byte ed25519 key in base64/,
    );
    expect(proofProblem(`v=MCPv1; k=ed25519; p=${hex.slice(0, 60)}`)).toMatch(/45 bytes, not the 32/);
    expect(proofProblem("v=MCPv1; k=rsa; p=AAAA")).toMatch(/not an algorithm the registry accepts/);
    expect(proofProblem("MCPv1 ed25519 AAAA")).toMatch(/does not read/);
    expect(
      proofProblem("v=MCPv1; k=ecdsap384; p=Av78KK7RJyuf3S2uzQcqoDSSTh9F2GnP2FZYiLzNRh0sE9IFuldQCpU9gQanDMMmMQ=="),
    ).toBeNull();
  });

  it("matches a registry namespace with the domain, its parents and its subdomains", () => {
    expect(namespaceDomain("com.example.api/server")).toBe("api.example.com");
    expect(namespaceFits("example.com", "example.com")).toBe(true);
    expect(namespaceFits("example.com", "mcp.example.com")).toBe(true);
    expect(namespaceFits("api.example.com", "example.com")).toBe(true);
    expect(namespaceFits("example.org", "example.com")).toBe(false);
    expect(namespaceFits("ample.com", "example.com")).toBe(false);
  });

  it("reads a server.json of an older registry schema as an outdated shape, not an invalid card", () => {
    const card = {
      $schema: "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json",
      name: "io.github.user/weather",
      version: "1.0.0",
      description: "Weather",
    };
    expect(cardShape(card)).toBe("legacy");
    expect(cardShape({ ...card, $schema: card.$schema.replace("2025-09-29", "2025-12-11") })).toBe("v1");
  });

  it("gives llms.txt v2's two twin URL forms, and index.md or index.html.md for a URL without a file name", () => {
    expect(twinCandidates("https://a.test/docs/page.html")).toEqual([
      "https://a.test/docs/page.html.md",
      "https://a.test/docs/page.md",
    ]);
    expect(twinCandidates("https://a.test/")).toEqual(["https://a.test/index.md", "https://a.test/index.html.md"]);
    expect(twinCandidates("https://a.test/guide/")).toContain("https://a.test/guide/index.html.md");
    expect(twinCandidates("https://a.test/quickstart")).toEqual(["https://a.test/quickstart.md"]);
  });

  it("lets an llms.txt cover the pages under its own path only", () => {
    expect(covers("https://a.test/docs/llms.txt", "https://a.test/docs/x")).toBe(true);
    expect(covers("https://a.test/docs/llms.txt", "https://a.test/")).toBe(false);
    expect(covers("https://a.test/llms.txt", "https://a.test/docs/x")).toBe(true);
  });

  it("reads aipref tokens y and n only, ignores unknown labels, and names contradictions", () => {
    expect(readUsage("train-ai=n, search=y", "robots.txt").statement?.preferences).toEqual({
      "train-ai": "disallow",
      search: "allow",
    });
    const loose = readUsage("train-ai=yes, ai-input=y", "robots.txt");
    expect(loose.unknown).toEqual(["train-ai=yes"]);
    expect(loose.ignored).toEqual(["ai-input"]);
    expect(readUsage("Train-AI=n", "robots.txt").statement).toBeNull();
    const usage = readUsage("search=n", "the header").statement;
    const signals = readSignals(["search=yes, ai-train=no"]);
    expect(contradictions([usage, signals].filter((s) => s !== null))).toEqual([
      "search: Content-Signal allows it, the header disallows it, so it is disallowed",
    ]);
  });

  it("signs what A2A §8.4.1 says: the card without signatures, in RFC 8785 order", () => {
    expect(signingPayload({ name: "x", signatures: [], capabilities: { streaming: false }, description: "" })).toBe(
      '{"capabilities":{"streaming":false},"description":"","name":"x"}',
    );
  });

  it("tells payment and destructive forms from others", () => {
    const tool = (name: string, fields: Array<Record<string, string>> = []) => ({
      form: {
        attributes: {},
        controls: fields.map((attributes) => ({ tag: "input" as const, type: "text", attributes, labelled: false })),
      },
      label: name,
      name,
      description: "",
    });
    expect(autosubmitRisk(tool("search-cars"))).toBeNull();
    expect(autosubmitRisk(tool("checkout"))).toBe("payment");
    expect(autosubmitRisk(tool("save", [{ autocomplete: "cc-number" }]))).toBe("payment");
    expect(autosubmitRisk(tool("delete_account"))).toBe("destructive");
  });
});
