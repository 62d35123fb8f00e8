import { describe, expect, it } from "vitest";
import {
  describeNonPublicAddress,
  type HostLookup,
  TargetNotAllowedError,
} from "../../../../../api/checks/engine/fetch/address-guard.ts";
import { parseTarget } from "../../../../../api/checks/engine/fetch/target.ts";
import { defineCheckerSettings } from "../../../../../api/checks/engine/settings.ts";
import { noDns } from "../_helpers.ts";

const settings = defineCheckerSettings();

async function refusal(input: string, lookup: HostLookup = noDns): Promise<TargetNotAllowedError> {
  const error: unknown = await parseTarget(input, settings, { lookup }).then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof TargetNotAllowedError)) throw new Error(`${input} was not refused (${String(error)})`);
  return error;
}

describe("parseTarget refuses non-public targets with a precise reason", () => {
  it.each([
    ["127.0.0.1", "127.0.0.1 is a loopback address"],
    ["http://[::1]/", "::1 is a loopback address"],
    ["10.1.2.3", "10.1.2.3 is a private address (RFC 1918)"],
    ["172.16.0.1", "172.16.0.1 is a private address (RFC 1918)"],
    ["172.31.255.255", "172.31.255.255 is a private address (RFC 1918)"],
    ["192.168.1.1", "192.168.1.1 is a private address (RFC 1918)"],
    ["169.254.169.254", "169.254.169.254 is a link-local address (this range holds cloud metadata services)"],
    ["0.0.0.0", "0.0.0.0 is an unspecified address"],
    ["100.64.0.1", "100.64.0.1 is a carrier-grade NAT address (RFC 6598)"],
    ["http://[fd00::1]/", "fd00::1 is a unique local address (RFC 4193)"],
    ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1 is an IPv4-mapped form of 127.0.0.1, a loopback address"],
    ["http://[::127.0.0.1]/", "::7f00:1 is an IPv4-compatible form of 127.0.0.1, a loopback address"],
    [
      "http://[::a9fe:a9fe]/",
      "::a9fe:a9fe is an IPv4-compatible form of 169.254.169.254, a link-local address (this range holds cloud metadata services)",
    ],
    [
      "http://[::ffff:0:10.0.0.1]/",
      "::ffff:0:a00:1 is an IPv4-translated form of 10.0.0.1, a private address (RFC 1918)",
    ],
    ["http://[64:ff9b::127.0.0.1]/", "64:ff9b::7f00:1 is a NAT64 form of 127.0.0.1, a loopback address"],
    ["http://[64:ff9b:1::8.8.8.8]/", "64:ff9b:1::808:808 is a local-use NAT64 address (RFC 8215), never a public one"],
    [
      "http://[2002:a9fe:a9fe::1]/",
      "2002:a9fe:a9fe::1 is a 6to4 form of 169.254.169.254, a link-local address (this range holds cloud metadata services)",
    ],
    // Teredo: server 65.54.227.120, client 127.0.0.1 stored with every bit inverted.
    [
      "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",
      "2001:0:4136:e378:8000:63bf:80ff:fffe is a Teredo form of 127.0.0.1, a loopback address",
    ],
    [
      "http://[2001:0:a00:1::f7f7:f7f7]/",
      "2001:0:a00:1::f7f7:f7f7 is a Teredo form of 10.0.0.1, a private address (RFC 1918)",
    ],
    ["http://2130706433/", "127.0.0.1 is a loopback address"],
    ["http://0x7f000001/", "127.0.0.1 is a loopback address"],
    ["http://0x7f.1/", "127.0.0.1 is a loopback address"],
  ])("refuses %s", async (input, reason) => {
    const error = await refusal(input);
    expect(error.reason).toBe("non-public-address");
    expect(error.message).toBe(reason);
  });

  it("accepts 172.32.0.1, which is just outside 172.16.0.0/12", async () => {
    const target = await parseTarget("172.32.0.1", settings, { lookup: noDns });
    expect(target.origin).toBe("https://172.32.0.1");
  });

  it.each([
    ["localhost", "localhost is a loopback name (RFC 6761)"],
    ["api.localhost.", "api.localhost is a loopback name (RFC 6761)"],
    ["printer.local", "printer.local is a private network name (.local is never public)"],
    ["nas.home.arpa", "nas.home.arpa is a private network name (.home.arpa is never public)"],
    ["db.internal", "db.internal is a private network name (.internal is never public)"],
  ])("refuses the reserved name %s before asking DNS, whatever DNS would say", async (name, message) => {
    let asked = false;
    const error = await refusal(name, async () => {
      asked = true;
      return [{ address: "93.184.215.14", family: 4 }];
    });
    expect(error.message).toBe(message);
    expect(asked).toBe(false);
  });

  it("refuses a name that resolves to loopback", async () => {
    const error = await refusal("loopback.example", async () => [{ address: "127.0.0.1", family: 4 }]);
    expect(error.message).toBe("loopback.example resolves to 127.0.0.1 is a loopback address");
  });

  it("refuses a name that resolves to a private address, even when another of its addresses is public", async () => {
    const error = await refusal("intranet.example", async () => [
      { address: "93.184.215.14", family: 4 },
      { address: "10.0.0.7", family: 4 },
    ]);
    expect(error.reason).toBe("non-public-address");
    expect(error.message).toBe("intranet.example resolves to 10.0.0.7 is a private address (RFC 1918)");
  });

  it("refuses a name that does not resolve", async () => {
    const error = await refusal("nowhere.example", async () => {
      throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    });
    expect(error.reason).toBe("unresolvable");
    expect(error.message).toBe("nowhere.example does not resolve (ENOTFOUND)");
  });

  it.each([
    ["ftp://example.com/", "scheme", "only http and https can be checked, not ftp"],
    ["file:///etc/passwd", "scheme", "only http and https can be checked, not file"],
    ["javascript:alert(1)", "scheme", "only http and https can be checked, not javascript"],
    ["https://user:secret@example.com/", "userinfo", "URLs with a user name or password are not checked"],
    ["user@example.com", "userinfo", "URLs with a user name or password are not checked"],
    ["example.com:8080", "port", "port 8080 is not checked: only 80 and 443 are"],
    ["", "malformed", "give a hostname such as example.com or an https URL"],
    ["http://exa mple.com/", "malformed", '"http://exa mple.com/" is neither a hostname nor a URL'],
  ])("rejects %s (%s)", async (input, reason, message) => {
    const error = await refusal(input);
    expect(error.reason).toBe(reason);
    expect(error.message).toBe(message);
  });
});

describe("parseTarget normalises what it accepts", () => {
  const publicLookup: HostLookup = async () => [{ address: "93.184.215.14", family: 4 }];

  it("checks a bare hostname over https and turns an IDN into punycode", async () => {
    const target = await parseTarget("Bücher.example", settings, { lookup: publicLookup });
    expect(target).toMatchObject({ origin: "https://xn--bcher-kva.example", allowListed: false });
    expect(target.root.href).toBe("https://xn--bcher-kva.example/");
  });

  it("checks the origin of a URL, dropping its path and query", async () => {
    const target = await parseTarget("http://example.com/docs/page?x=1#top", settings, { lookup: publicLookup });
    expect(target.origin).toBe("http://example.com");
  });

  it("lets an allow-listed loopback host:port through, and only that port", async () => {
    const local = defineCheckerSettings({ allowedTargets: ["127.0.0.1:4321"] });
    await expect(parseTarget("http://127.0.0.1:4321/", local, { lookup: noDns })).resolves.toMatchObject({
      allowListed: true,
      origin: "http://127.0.0.1:4321",
    });
    await expect(parseTarget("http://127.0.0.1:4322/", local, { lookup: noDns })).rejects.toThrow(
      "port 4322 is not checked",
    );
  });
});

describe("describeNonPublicAddress", () => {
  it("answers null for public unicast addresses, IPv4 and IPv6", () => {
    expect(describeNonPublicAddress("8.8.8.8")).toBeNull();
    expect(describeNonPublicAddress("2001:4860:4860::8888")).toBeNull();
  });

  it("lets a NAT64 address of a public IPv4 address through (DNS64 answers with these), and no tunnelling form", () => {
    expect(describeNonPublicAddress("64:ff9b::808:808")).toBeNull();
    expect(describeNonPublicAddress("::8.8.8.8")).toBe(
      "::808:808 is an IPv4-compatible address (a way to reach 8.8.8.8): only native IPv4 and IPv6 addresses are checked",
    );
    expect(describeNonPublicAddress("2002:808:808::1")).toBe(
      "2002:808:808::1 is a 6to4 address (a way to reach 8.8.8.8): only native IPv4 and IPv6 addresses are checked",
    );
  });

  it("refuses a name whose DNS answer embeds a private IPv4 address in an IPv6 one", async () => {
    const error = await refusal("sneaky.example", async () => [{ address: "::a9fe:a9fe", family: 6 }]);
    expect(error.message).toBe(
      "sneaky.example resolves to ::a9fe:a9fe is an IPv4-compatible form of 169.254.169.254, a link-local address (this range holds cloud metadata services)",
    );
  });
});
