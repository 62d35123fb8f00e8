import { z } from "zod";
import { definePrompt, type FlowPrompt } from "./prompts.ts";

const numbered = (lines: readonly (string | false)[]) =>
  lines
    .filter((line): line is string => line !== false)
    .map((line, index) => `${index + 1}. ${line.charAt(0).toUpperCase()}${line.slice(1)}`)
    .join("\n");

/** The service's useful flows as MCP prompts; each step is written by the server from its tools. */
export const FLOW_PROMPTS: readonly FlowPrompt[] = [
  definePrompt({
    name: "check_domain_readiness",
    title: "Check a domain's agent readiness",
    description:
      "Runs a readiness check on a domain, reads and unlocks the full report with a credit code or a payment, and can watch the site.",
    needs: ["runCheck"],
    arguments: z.strictObject({
      domain: z.string().min(1).max(2048).describe("The hostname or URL to check, e.g. example.com"),
      credit_code: z.string().min(1).max(64).optional().describe("A credit code to unlock the full report with"),
    }),
    message: ({ domain, credit_code }, step) =>
      [
        `Check how ready ${domain} is for AI agents and get its full report.`,
        numbered([
          `${step("runCheck")} with domain "${domain}". It answers a locked report: keep its \`id\`; \`summary\` and \`findings\` are free, \`unlock\` lists the prices.`,
          credit_code
            ? `Unlock it with the credit code "${credit_code}": ${step("redeemCredit")}, at the report's \`id\`.`
            : `To unlock it with a credit code: ${step("redeemCredit")}, at the report's \`id\`. To pay instead: ${step("checkoutCheck")}, and give the returned \`url\` to the person who pays; the report unlocks when the payment completes.`,
          `${step("getCheck")} with the \`id\` to read the report, in full once unlocked.`,
          `To watch the site over time, follow the report's \`watch\`: ${step("createAgentMonitor")}, with \`watch.tool.arguments\` (a token of the scope monitors:write); when \`watch.available\` is false, its \`reason\` says why not.`,
        ]),
      ].join("\n"),
  }),
  definePrompt({
    name: "buy_store_item",
    title: "Buy a store item and download it",
    description:
      "Finds an item in the store, starts a hosted checkout a person pays at, and downloads the file once paid.",
    needs: ["startStoreCheckout"],
    arguments: z.strictObject({
      item: z.string().min(1).max(100).optional().describe("The item's id or what to look for; leave out to browse"),
      email: z.email().optional().describe("Where the receipt and the download link go"),
    }),
    message: ({ item, email }, step) =>
      [
        item ? `Buy "${item}" from the store and download it.` : "Buy an item from the store and download it.",
        numbered([
          `${step("listProducts")} to find the item's \`id\`, its price and whether it is on sale. Never send a price: the store sets it.`,
          `${step("startStoreCheckout")}${email ? `, with email "${email}"` : ""}, at the item's \`id\`. Give the returned \`url\` to the person who pays, and keep the session \`id\`.`,
          `${step("getPurchaseSession")} with the session \`id\` until \`delivery.state\` is \`fulfilled\` and \`download_url\` is present.`,
          `${step("downloadPurchase")}: fetch the \`download_url\` while \`entitlement.active\` is true.`,
        ]),
      ].join("\n"),
  }),
  definePrompt({
    name: "join_agent_waitlist_as_agent",
    title: "Register as an agent and join the agent waiting list",
    description:
      "Gets an agent token over MCP, joins the agent waiting list with the operator's consent and answers the survey.",
    needs: ["registerAgent", "joinAgentWaitlist"],
    arguments: z.strictObject({
      agent_name: z.string().min(1).max(200).describe("The agent's name, as it will be registered"),
      answer_survey: z.enum(["yes", "no"]).optional().describe("yes to answer the agent survey too"),
    }),
    message: ({ agent_name, answer_survey }, step) =>
      [
        `Register "${agent_name}" as an agent and join the agent waiting list.`,
        numbered([
          `${step("registerAgent")} with agent_name "${agent_name}". It returns a \`token\` once: keep it secret and send it as \`Authorization: Bearer <token>\` on every later MCP request (reconnect with that header).`,
          `${step("getPolicy")} with slug "privacy": its \`version\` is the \`consent_version\` to send. Ask your operator's consent before you join.`,
          `${step("joinAgentWaitlist")}. Each registration joins once: a conflict means it is already on the list.`,
          answer_survey === "yes" &&
            `${step("getDoc")} with path "agents/survey" for the questions and the \`survey_version\`, then ${step("answerAgentSurvey")}.`,
          `${step("getAgentStanding")} to confirm.`,
        ]),
      ].join("\n"),
  }),
  definePrompt({
    name: "join_people_waitlist",
    title: "Put a person on the waiting list, with their consent",
    description: "Joins the people's waiting list for a person who agreed to it, under the current privacy policy.",
    needs: ["joinWaitlist"],
    arguments: z.strictObject({
      email: z.email().describe("The person's e-mail address"),
      name: z.string().min(1).max(200).optional().describe("The person's name"),
    }),
    message: ({ email, name }, step) =>
      [
        `Put ${name ? `${name} <${email}>` : email} on the people's waiting list, only with their consent.`,
        numbered([
          `${step("getPolicy")} with slug "privacy", show it to the person and ask whether they agree. Stop if they do not.`,
          `${step("joinWaitlist")}: \`consent\` true and \`consent_version\` the privacy policy's \`version\`. Send \`legend_terms_version\` only if they also accept the legend terms (slug "legend-terms").`,
          "The answer is always `received`, whether or not the address was already listed.",
        ]),
      ].join("\n"),
  }),
];
