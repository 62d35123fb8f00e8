/**
 * What pages rendered on demand may ask of the running server, passed in `Astro.locals`. Pages
 * never import the server: they get these functions, and a page built without them (astro dev,
 * a static host) says the feature is unavailable.
 */
export interface PublicConfig {
  forms: { waitlist: boolean; agent_waitlist: boolean; agent_survey: boolean; agent_register: boolean };
  features: { store: boolean; checks: boolean; check_payments: boolean; credit_packs: boolean; mcp: boolean };
  privacy_version: string;
  legend_terms_version: string;
}

export interface FieldError {
  /** The form field's name. */
  field: string;
  message: string;
}

export type FormResult<T> = { ok: true; value: T } | { ok: false; status: number; message: string; errors: FieldError[] };

export interface PageServices {
  config(): Promise<PublicConfig>;
  joinWaitlist(input: unknown): Promise<FormResult<{ legend: boolean }>>;
}
