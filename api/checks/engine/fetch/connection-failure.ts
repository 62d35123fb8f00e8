/**
 * What a failed connection means, in the words a site owner uses: a scan report and the CLI show these instead of
 * OpenSSL's error strings ("0A00010B:SSL routines:ssl3_get_record:wrong version number").
 */
const TLS_MEANINGS: Readonly<Record<string, (host: string) => string>> = {
  ERR_SSL_WRONG_VERSION_NUMBER: (host) => `the server does not speak TLS on ${host} (it may serve plain HTTP there)`,
  CERT_HAS_EXPIRED: () => "its certificate has expired",
  CERT_NOT_YET_VALID: () => "its certificate is not valid yet",
  DEPTH_ZERO_SELF_SIGNED_CERT: () => "its certificate is self-signed, so no client can trust it",
  SELF_SIGNED_CERT_IN_CHAIN: () => "its certificate chain ends in a self-signed certificate no client trusts",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: () =>
    "its certificate chain is incomplete (the intermediate certificate is missing)",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: () =>
    "its certificate comes from an authority no client trusts, or the chain is incomplete",
  ERR_TLS_CERT_ALTNAME_INVALID: (host) => `its certificate is not valid for ${host.replace(/:\d+$/, "")}`,
};

const NETWORK_MEANINGS: Readonly<Record<string, string>> = {
  ECONNREFUSED: "nothing accepts connections there",
  ECONNRESET: "the server closed the connection",
  EHOSTUNREACH: "the host cannot be reached",
  ENETUNREACH: "the network of that host cannot be reached",
  UND_ERR_SOCKET: "the server closed the connection",
};

/** A plain sentence for a TLS failure code, or null when the code is not one we know. */
export function describeTlsFailure(code: string, url: string): string | null {
  const target = new URL(url);
  const meaning = TLS_MEANINGS[code]?.(target.host);
  return meaning === undefined ? null : `could not connect over HTTPS to ${target.host}: ${meaning}`;
}

/** A plain sentence for a connection failure code, or null when the code is not one we know. */
export function describeNetworkFailure(code: string, url: string): string | null {
  const target = new URL(url);
  const meaning = NETWORK_MEANINGS[code];
  const over = target.protocol === "https:" ? " over HTTPS" : "";
  return meaning === undefined ? null : `could not connect${over} to ${target.host}: ${meaning}`;
}
