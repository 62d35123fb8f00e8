/** Forms staff can open and close without a restart. */
export const FORM_SWITCHES = ["waitlist", "agent_waitlist", "agent_survey", "agent_register"] as const;
/** Features staff can switch on and off without a restart. */
export const FEATURE_SWITCHES = ["store", "checks", "check_payments", "credit_packs", "mcp"] as const;

export type FormSwitch = (typeof FORM_SWITCHES)[number];
export type FeatureSwitch = (typeof FEATURE_SWITCHES)[number];
export type SwitchName = FormSwitch | FeatureSwitch;
export const SWITCH_NAMES: readonly SwitchName[] = [...FORM_SWITCHES, ...FEATURE_SWITCHES];

export type Switches = Record<SwitchName, boolean>;

/** Everything is open unless staff closes it. */
export const DEFAULT_SWITCHES: Switches = Object.fromEntries(SWITCH_NAMES.map((name) => [name, true])) as Switches;

/** Parts of the running service an endpoint can depend on; any one unavailable makes it answer 503. */
export const COMPONENTS = ["database", "payments", "mail", "files"] as const;
export type Component = (typeof COMPONENTS)[number];
