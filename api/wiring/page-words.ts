import type { FieldError } from "../../src/lib/page-services.ts";
import { TargetNotAllowedError, type TargetRefusalReason } from "../checks/engine/fetch/address-guard.ts";
import type { ApiProblem, Violation } from "../platform/problem.ts";

/**
 * The forms' failures in the words a person uses. The API's problems keep their precise machine
 * wording (agents act on it); a page shows one plain message per problem instead, never a system
 * code such as ENOTFOUND or a rule such as "must be true".
 */
export interface PeopleFailure {
  message: string;
  errors: FieldError[];
}

/** `#/interests/2` → `interests`: the form field a violation belongs to. */
export function fieldOf(pointer: string): string {
  return pointer.replace(/^#\/?/, "").split("/")[0] || "form";
}

/** `37` → `a minute`, `600` → `10 minutes`, `7200` → `about 2 hours`. */
export function waitFor(seconds: number): string {
  if (seconds <= 60) return "a minute";
  if (seconds < 3600) return `${Math.ceil(seconds / 60)} minutes`;
  const hours = Math.round(seconds / 3600);
  return hours === 1 ? "about an hour" : `about ${hours} hours`;
}

const TARGET_REFUSALS: Record<TargetRefusalReason, string> = {
  unresolvable: "We could not find this domain; check the spelling.",
  malformed: "That does not look like a web address. Enter a domain such as example.com, or a full address.",
  scheme: "Only websites can be checked: enter a domain such as example.com, or an address starting with https://.",
  userinfo: "Leave out the user name and password: enter just the site's address, such as example.com.",
  port: "We check sites on the usual web ports only: leave the port number (such as :8080) out of the address.",
  "non-public-address":
    "This address is on a private or local network, so we cannot reach it. Enter a site on the public internet.",
};

/** One message per field, the first violation's: a field with two broken rules still needs one fix. */
function oneEach(violations: readonly Violation[], word: (field: string) => string): FieldError[] {
  const fields = [...new Set(violations.map((violation) => fieldOf(violation.pointer)))];
  return fields.map((field) => ({ field, message: word(field) }));
}

/** What any form says when it could not be handled at all; `null` leaves the problem to the form. */
function commonFailure(problem: ApiProblem, subject: string): string | null {
  const retry = Number(problem.options.headers?.["Retry-After"] ?? "60");
  switch (problem.code) {
    case "rate-limited":
      return `You have sent this form several times in a short while. Please wait ${waitFor(retry)} and try again.`;
    case "form-closed":
      return `${subject} is closed for now, so nothing was sent. Please come back later.`;
    case "service-unavailable":
      return `${subject} is not available right now, so nothing was sent. Please try again in a few minutes.`;
    default:
      return null;
  }
}

const answers = (count: number) => `Please correct ${count === 1 ? "the answer" : `the ${count} answers`} below.`;

/** The checks form: one site field, so one message, shown once. */
export function checkFailureForPeople(problem: ApiProblem, input: { domain: string }): PeopleFailure {
  const daily = problem.options.extra?.violated_policies;
  if (problem.code === "rate-limited" && Array.isArray(daily) && daily.includes("checks-daily")) {
    return { message: "You have used today's free checks from your network. Please come back tomorrow.", errors: [] };
  }
  const common = commonFailure(problem, "Checking sites");
  if (common) return { message: common, errors: [] };
  if (problem.code === "target-not-allowed") {
    const reason = problem.cause instanceof TargetNotAllowedError ? problem.cause.reason : "malformed";
    const message = TARGET_REFUSALS[reason];
    return { message, errors: [{ field: "domain", message }] };
  }
  if (problem.code === "validation-failed") {
    const errors = oneEach(problem.options.errors ?? [], (field) =>
      field === "domain"
        ? input.domain.trim() === ""
          ? "Enter the address of the site to check, such as example.com."
          : "That address is too long. Enter just the site, such as example.com."
        : "Choose one of the kinds of site in the list.",
    );
    return { message: errors[0]?.message ?? answers(0), errors };
  }
  return { message: problem.detail, errors: [] };
}

const WAITLIST_WORDS: Record<string, (input: { email: string }) => string> = {
  email: ({ email }) =>
    email === ""
      ? "Enter your e-mail address."
      : email.length > 320
        ? "This e-mail address is too long: it can have at most 320 characters."
        : "Enter your e-mail address in full, such as name@example.com.",
  name: () => "Your name can be at most 200 characters long.",
  interests: () => "Choose only from the interests listed.",
  consent: () => "Tick the box to agree to the privacy policy: we can only add you to the list if you agree.",
  consent_version: () => "The privacy policy changed while this page was open. Please read it and agree again.",
  legend_terms_version: () =>
    "The legend terms changed while this page was open. Please read them and tick the box again.",
};

/** The waiting-list form: a message for each answer to correct, and a summary that counts them. */
export function waitlistFailureForPeople(problem: ApiProblem, input: { email: string }): PeopleFailure {
  const common = commonFailure(problem, "The waiting list");
  if (common) return { message: common, errors: [] };
  if (problem.code !== "validation-failed") return { message: problem.detail, errors: [] };
  const errors = oneEach(problem.options.errors ?? [], (field) =>
    (WAITLIST_WORDS[field] ?? (() => "Please check this answer."))(input),
  );
  return { message: answers(errors.length), errors };
}
