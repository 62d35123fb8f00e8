/** Text for XML or HTML content and attribute values: the five characters that could end or start markup, as references. */
export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
