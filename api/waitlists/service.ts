import type { WaitlistSignup } from "../../src/schemas/requests/waitlist.ts";
import type { Sql } from "../db/sql.ts";
import { upsertSignup } from "./sql.ts";

export interface WaitlistServiceDeps {
  db: () => Sql;
  now: () => Date;
}

/** `Name@Example.COM ` → `name@example.com`: one person, one row. */
export function normaliseEmail(email: string): string {
  return email.trim().normalize("NFC").toLowerCase();
}

export class WaitlistService {
  private readonly deps: WaitlistServiceDeps;

  constructor(deps: WaitlistServiceDeps) {
    this.deps = deps;
  }

  /**
   * Adds a person, or leaves them listed. The reply depends only on the request, never on whether
   * the address was already there, so it reveals nothing about who is on the list. The body was
   * validated against the policy versions in force (requestSchemas).
   */
  async join(signup: WaitlistSignup): Promise<{ status: "received"; legend: boolean }> {
    const legend = signup.legend_terms_version !== undefined;
    await upsertSignup(this.deps.db(), {
      email: normaliseEmail(signup.email),
      name: signup.name ?? null,
      interests: signup.interests ?? [],
      consent_version: signup.consent_version,
      legend_terms_version: signup.legend_terms_version ?? null,
      legend,
      at: this.deps.now().toISOString(),
    });
    return { status: "received", legend };
  }
}
