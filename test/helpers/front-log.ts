import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** One line of the nginx front's access log (src/lib/nginx-log.ts). */
export interface FrontLogLine {
  method: string;
  path: string;
  status: number;
  /** The instances nginx tried, `host:port` each, comma-separated; empty when it answered itself. */
  upstream: string;
}

/** Every line the front has logged so far (nginx writes each when its request ends). */
export async function frontLog(workDir: string): Promise<FrontLogLine[]> {
  const text = await readFile(join(workDir, "access.log"), "utf8");
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as FrontLogLine);
}
