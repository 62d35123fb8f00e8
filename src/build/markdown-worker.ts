// A worker of src/build/markdown-ahead.ts: renders the Markdown it is sent, one message per page, in order.
import { parentPort } from "node:worker_threads";
import { renderMarkdownPage } from "../lib/markdown.ts";

parentPort?.on("message", (bodies: string[]) => {
  for (const [index, markdown] of bodies.entries())
    parentPort?.postMessage({ index, rendered: renderMarkdownPage(markdown) });
});
