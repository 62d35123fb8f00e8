import type { ServiceSettings } from "../../schemas/service.ts";
import { findOperation, type Operation, type OperationId } from "../registry.ts";
import {
  COMPONENTS,
  type Component,
  DEFAULT_SWITCHES,
  SWITCH_NAMES,
  type Switches,
  type SwitchName,
} from "../switches.ts";

export type ComponentHealth = "ok" | "configured" | "unavailable" | "not-configured";

/** What the running service can do right now: staff switches plus the health of each component. */
export interface ServiceState {
  switches: Switches;
  components: Record<Component, ComponentHealth>;
  checkedAt: string;
}

/** The state a static build assumes: everything on and working. */
export function fullyAvailableState(at: string): ServiceState {
  return {
    switches: { ...DEFAULT_SWITCHES },
    components: Object.fromEntries(COMPONENTS.map((component) => [component, "ok"])) as Record<
      Component,
      ComponentHealth
    >,
    checkedAt: at,
  };
}

export function isComponentUsable(health: ComponentHealth): boolean {
  return health === "ok" || health === "configured";
}

export type Unavailability =
  | { kind: "unpublished" }
  | { kind: "switched-off"; reason: string }
  | { kind: "component"; component: Component };

/** Why an operation cannot be used now, or `null` when it can. */
export function operationUnavailability(
  operation: Operation,
  state: ServiceState,
  service: ServiceSettings,
): Unavailability | null {
  if (operation.published && !service.publish[operation.published]) return { kind: "unpublished" };
  if (operation.switch && !state.switches[operation.switch]) {
    return { kind: "switched-off", reason: `${operation.switch} is switched off` };
  }
  const down = operation.requires.find((component) => !isComponentUsable(state.components[component]));
  return down ? { kind: "component", component: down } : null;
}

export function isOperationAvailable(operation: Operation, state: ServiceState, service: ServiceSettings): boolean {
  return operationUnavailability(operation, state, service) === null;
}

/** What each switch opens to clients: every one of these operations must work for it to be called open. */
const OFFERED_BY: Record<SwitchName, readonly OperationId[]> = {
  waitlist: ["joinWaitlist"],
  agent_waitlist: ["joinAgentWaitlist"],
  agent_survey: ["answerAgentSurvey"],
  agent_register: ["registerAgent"],
  store: ["startStoreCheckout"],
  checks: ["runCheck"],
  check_payments: ["checkoutCheck"],
  // A pack is bought through the report checkout: without a payment provider no pack can be had.
  credit_packs: ["checkoutCheck", "redeemCredit"],
  mcp: ["callMcp"],
};

/**
 * The switches as clients may rely on them: on only while staff has it on and what it offers works now
 * (a store switched on without a payment provider is not open for business).
 */
export function openSwitches(state: ServiceState, service: ServiceSettings): Switches {
  const open = (name: SwitchName) =>
    OFFERED_BY[name].every((id) => isOperationAvailable(findOperation(id), state, service));
  return Object.fromEntries(SWITCH_NAMES.map((name) => [name, open(name)])) as Switches;
}
