import { isIP } from "node:net";
import { type CheckContext, defineCheck, fail, judge, listProblems, notApplicable } from "../../check-types.ts";
import { type AgentDnsAnswer, AgentDnsError } from "../../dns/agent-dns.ts";
import type { SvcbRecord } from "../../dns/svcb.ts";
import { describeReservedName } from "../../fetch/address-guard.ts";

const DNS_AID_DRAFT = "https://datatracker.ietf.org/doc/draft-mozleywilliams-dnsop-dnsaid/";
const SVCB_RFC = "https://www.rfc-editor.org/rfc/rfc9460";

/** The name Cloudflare's dnsAid check looks up: the zone's index of agents under the `_agents` label. */
export function dnsAidIndexName(hostname: string): string {
  return `_index._agents.${hostname.replace(/\.$/, "")}`;
}

/** An alias (RFC 9460 AliasMode) is followed once, as a client would, so its ServiceMode records are judged. */
async function lookupFollowingAlias(context: CheckContext, name: string): Promise<AgentDnsAnswer & { name: string }> {
  const answer = await context.agentDns(name);
  const alias = answer.records.find((record) => record.priority === 0 && record.target !== ".");
  if (alias === undefined || answer.records.some((record) => record.priority > 0)) return { ...answer, name };
  const followed = await context.agentDns(alias.target);
  return { ...followed, authenticated: answer.authenticated && followed.authenticated, name: alias.target };
}

function describeRecord(record: SvcbRecord): string {
  const alpn = record.params.alpn === undefined ? "" : ` alpn=${record.params.alpn}`;
  return `${record.target === "." ? "(owner name)" : record.target}${alpn}`;
}

function judgeRecord(record: SvcbRecord, problems: string[], cautions: string[]): void {
  const where = describeRecord(record);
  if (record.params.alpn === undefined)
    cautions.push(`${where}: no alpn, so agents cannot tell which protocol (mcp, a2a, h2) it speaks`);
  for (const key of ["cap", "policy"]) {
    const value = record.params[key];
    if (value !== undefined && !(URL.canParse(value) && new URL(value).protocol === "https:"))
      problems.push(`${where}: ${key} "${value}" is not an https URL`);
  }
  const port = record.params.port;
  if (port !== undefined && !(Number(port) >= 1 && Number(port) <= 65_535))
    problems.push(`${where}: port "${port}" is not a port number`);
}

export const dnsAid = defineCheck({
  id: "dns.aid",
  title: "Agents are published in DNS (DNS-AID SVCB records, DNSSEC-signed)",
  category: "discovery",
  severity: "info",
  maturity: "draft",
  profiles: ["agent"],
  remediation:
    "Optional: publish SVCB ServiceMode records under _index._agents.<your domain> pointing at your agent endpoints (alpn naming the protocol), in a DNSSEC-signed zone.",
  prompt:
    'Publish our agents in DNS (DNS-AID): add an SVCB record `_index._agents.<our domain>. 3600 IN SVCB 1 <agent host>. alpn="mcp" port=443` (and one per agent under _<name>._<protocol>._agents), and enable DNSSEC for the zone at the registrar.',
  specUrls: [DNS_AID_DRAFT, SVCB_RFC, "https://isitagentready.com"],
  requests: "DNS: SVCB records at `_index._agents.<host>` (no HTTP request; never for an IP address)",
  passes:
    "ServiceMode records (an alias is followed once) whose `cap` and `policy` are https URLs; no `alpn`, or no DNSSEC validation, is `warn`; no records is `n/a` (DNS-AID is optional)",
  async run(context) {
    const host = context.target.root.hostname.replace(/^\[|\]$/g, "");
    if (isIP(host) !== 0) return notApplicable(`${host} is an IP address, which has no DNS zone to publish agents in`);
    const reserved = describeReservedName(host);
    if (reserved !== null) return notApplicable(`${reserved}, so it has no public DNS zone`);
    const name = dnsAidIndexName(host);
    let answer: AgentDnsAnswer & { name: string };
    try {
      answer = await lookupFollowingAlias(context, name);
    } catch (error) {
      if (error instanceof AgentDnsError) throw new Error(`the DNS-AID lookup of ${name} failed: ${error.message}`);
      throw error;
    }
    const services = answer.records.filter((record) => record.priority > 0);
    if (answer.records.length === 0) return notApplicable(`no SVCB records at ${name}; DNS-AID is optional`);
    if (services.length === 0)
      return fail(`${name} has only AliasMode records that lead to no ServiceMode record (RFC 9460 §2.4.2)`);
    const problems: string[] = [];
    const cautions: string[] = [];
    for (const record of services) judgeRecord(record, problems, cautions);
    if (!answer.authenticated)
      cautions.push(`the answer is not DNSSEC-validated, and DNS-AID relies on DNSSEC for agents to trust it`);
    return judge(
      { problems, cautions },
      `${services.length} ServiceMode record(s) at ${answer.name}, DNSSEC-validated: ${listProblems(services.map(describeRecord))}`,
    );
  },
});
