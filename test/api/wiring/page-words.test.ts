import { describe, expect, it } from "vitest";
import { TargetNotAllowedError, type TargetRefusalReason } from "../../../api/checks/engine/fetch/address-guard.ts";
import { ApiProblem } from "../../../api/platform/problem.ts";
import { checkFailureForPeople, waitFor, waitlistFailureForPeople } from "../../../api/wiring/page-words.ts";

const refusal = (reason: TargetRefusalReason, detail: string) =>
  new ApiProblem("target-not-allowed", detail, {
    errors: [{ pointer: "#/domain", detail }],
    cause: new TargetNotAllowedError(reason, detail, "x"),
  });

describe("the checks form's failures in plain words", () => {
  it("tells a person a domain was not found without the system's error code", () => {
    const failure = checkFailureForPeople(refusal("unresolvable", "nope.example does not resolve (ENOTFOUND)"), {
      domain: "nope.example",
    });
    expect(failure.message).toBe("We could not find this domain; check the spelling.");
    expect(failure.errors).toEqual([{ field: "domain", message: failure.message }]);
  });

  it.each<[TargetRefusalReason, string]>([
    ["non-public-address", "10.0.0.1 is a private address (RFC 1918)"],
    ["port", "port 8080 is not checked: only 80 and 443 are"],
    ["userinfo", "URLs with a user name or password are not checked"],
    ["scheme", "only http and https can be checked, not ftp"],
    ["malformed", '"a b" is neither a hostname nor a URL'],
  ])("words a %s refusal without the API's jargon", (reason, detail) => {
    const { message } = checkFailureForPeople(refusal(reason, detail), { domain: "x" });
    expect(message).not.toBe(detail);
    expect(message).not.toMatch(/RFC|not checked|neither a hostname|\(E[A-Z]+\)/);
    expect(message).toMatch(/^[A-Z].*\.$/);
  });

  it("asks for an address when the field was left empty", () => {
    const problem = new ApiProblem("validation-failed", "1 field failed validation", {
      errors: [{ pointer: "#/domain", detail: "must be 1 to 2048 characters long" }],
    });
    expect(checkFailureForPeople(problem, { domain: " " }).message).toBe(
      "Enter the address of the site to check, such as example.com.",
    );
  });

  it("tells someone over the daily allowance to come back tomorrow, and someone over the minute's to wait", () => {
    const daily = new ApiProblem("rate-limited", "Over the limit of 20 requests per 86400 s", {
      headers: { "Retry-After": "50000" },
      extra: { violated_policies: ["checks-daily"] },
    });
    expect(checkFailureForPeople(daily, { domain: "a.example" }).message).toContain("come back tomorrow");
    const burst = new ApiProblem("rate-limited", "Over the limit", {
      headers: { "Retry-After": "240" },
      extra: { violated_policies: ["checks"] },
    });
    expect(checkFailureForPeople(burst, { domain: "a.example" }).message).toContain("Please wait 4 minutes");
  });
});

describe("the waiting-list form's failures in plain words", () => {
  it("gives one message per field, however many rules it broke, and never 'must be true'", () => {
    const problem = new ApiProblem("validation-failed", "3 fields failed validation", {
      errors: [
        { pointer: "#/email", detail: "must be at most 320 characters" },
        { pointer: "#/email", detail: "must be an e-mail address like name@example.com" },
        { pointer: "#/consent", detail: "must be true: joining the list needs your consent" },
      ],
    });
    const failure = waitlistFailureForPeople(problem, { email: "x".repeat(400) });
    expect(failure.message).toBe("Please correct the 2 answers below.");
    expect(failure.errors).toEqual([
      { field: "email", message: "This e-mail address is too long: it can have at most 320 characters." },
      {
        field: "consent",
        message: "Tick the box to agree to the privacy policy: we can only add you to the list if you agree.",
      },
    ]);
  });

  it("says what to do when the list is closed", () => {
    const closed = new ApiProblem("form-closed", "This is closed for now (waitlist is switched off).");
    expect(waitlistFailureForPeople(closed, { email: "" })).toEqual({
      message: "The waiting list is closed for now, so nothing was sent. Please come back later.",
      errors: [],
    });
  });
});

describe("waiting times in words", () => {
  it.each([
    [30, "a minute"],
    [600, "10 minutes"],
    [3600, "about an hour"],
    [7300, "about 2 hours"],
  ])("%i seconds is %s", (seconds, words) => {
    expect(waitFor(seconds)).toBe(words);
  });
});
