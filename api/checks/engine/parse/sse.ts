/** The `data` payloads of a text/event-stream body (HTML Living Standard, "server-sent events"). */
export function sseDataPayloads(text: string): string[] {
  const payloads: string[] = [];
  let data: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === "") {
      if (data.length > 0) payloads.push(data.join("\n"));
      data = [];
      continue;
    }
    if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
  }
  if (data.length > 0) payloads.push(data.join("\n"));
  return payloads;
}
