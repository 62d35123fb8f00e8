import { z } from "zod";
import { parseSvcbData, type SvcbRecord } from "./svcb.ts";

/** What a lookup of one DNS-AID name found. No such name, or no SVCB records at it, is an empty list. */
export interface AgentDnsAnswer {
  records: SvcbRecord[];
  /** The resolver validated the answer with DNSSEC (the AD bit). */
  authenticated: boolean;
}

/** SVCB lookups for DNS-AID; injectable like the address lookup, so tests never touch real DNS. */
export type AgentDnsResolver = (name: string) => Promise<AgentDnsAnswer>;

/** The lookup itself failed (resolver unreachable, SERVFAIL): the scanner's trouble, not the site's. */
export class AgentDnsError extends Error {
  override name = "AgentDnsError";
}

const SVCB_TYPE = 64;
const NXDOMAIN = 3;
const MAX_ANSWER_BYTES = 65_536;

/** The JSON answer format of DNS-over-HTTPS resolvers (Cloudflare 1.1.1.1, Google Public DNS). */
const DohAnswerSchema = z.object({
  Status: z.int(),
  AD: z.boolean().optional(),
  Answer: z.array(z.object({ type: z.int(), data: z.string() })).optional(),
});

export const DEFAULT_DOH_ENDPOINT = "https://cloudflare-dns.com/dns-query";

/**
 * Resolves over DNS-over-HTTPS, as Cloudflare's own DNS-AID check does: Node's resolver has no SVCB type, and a
 * validating public resolver reports DNSSEC in its AD bit. The request goes to this fixed resolver, never to an
 * address the checked site chooses, so it needs no SSRF guard; the site's name only travels as the query.
 */
export function dnsOverHttpsResolver(endpoint = DEFAULT_DOH_ENDPOINT, timeoutMs = 3_000): AgentDnsResolver {
  return async (name) => {
    const url = new URL(endpoint);
    url.searchParams.set("name", name);
    url.searchParams.set("type", String(SVCB_TYPE));
    let text: string;
    try {
      const response = await fetch(url, {
        headers: { accept: "application/dns-json" },
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw new AgentDnsError(`the DNS-over-HTTPS resolver answered ${response.status}`);
      text = await response.text();
    } catch (error) {
      if (error instanceof AgentDnsError) throw error;
      throw new AgentDnsError(
        `the DNS-over-HTTPS resolver did not answer: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (text.length > MAX_ANSWER_BYTES) throw new AgentDnsError("the DNS-over-HTTPS answer is too large");
    let parsed: z.infer<typeof DohAnswerSchema>;
    try {
      parsed = DohAnswerSchema.parse(JSON.parse(text));
    } catch {
      throw new AgentDnsError("the DNS-over-HTTPS answer is not the JSON format");
    }
    if (parsed.Status === NXDOMAIN) return { records: [], authenticated: parsed.AD === true };
    if (parsed.Status !== 0) throw new AgentDnsError(`the resolver answered DNS status ${parsed.Status} for ${name}`);
    const records = (parsed.Answer ?? []).flatMap((answer) => {
      if (answer.type !== SVCB_TYPE) return [];
      const record = parseSvcbData(answer.data);
      return record === null ? [] : [record];
    });
    return { records, authenticated: parsed.AD === true };
  };
}
