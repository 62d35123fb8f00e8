// A worker of src/build/markdown-ahead.ts: renders the Markdown it is sent, one message per page, in
// order. JavaScript that loads the TypeScript renderer through tsx: Node 20 does not apply `--import`
// from a worker's execArgv.
import { parentPort } from "node:worker_threads";
import { tsImport } from "tsx/esm/api";

const { renderMarkdownPage } = await tsImport("../lib/markdown.ts", import.meta.url);

parentPort?.on("message", (bodies) => {
  for (const [index, markdown] of bodies.entries())
    parentPort?.postMessage({ index, rendered: renderMarkdownPage(markdown) });
});
