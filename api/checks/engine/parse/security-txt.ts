/** The fields of a security.txt (RFC 9116 §2.4), names lower case, in file order. */
export function parseSecurityTxt(text: string): Array<{ name: string; value: string }> {
  const fields: Array<{ name: string; value: string }> = [];
  let inSignature = false;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    // An OpenPGP cleartext signature wraps the fields; the armour and signature block are not fields (§2.3).
    if (line.startsWith("-----BEGIN PGP SIGNATURE")) inSignature = true;
    if (line.startsWith("-----END PGP SIGNATURE")) {
      inSignature = false;
      continue;
    }
    if (inSignature || line === "" || line.startsWith("#") || line.startsWith("-----") || /^Hash:/i.test(line))
      continue;
    const separator = line.indexOf(":");
    if (separator <= 0) continue;
    fields.push({ name: line.slice(0, separator).trim().toLowerCase(), value: line.slice(separator + 1).trim() });
  }
  return fields;
}
