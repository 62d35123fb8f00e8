import { execFile, execFileSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { LoadOptions, LoadResult } from "./load-shapes.ts";

const run = promisify(execFile);

export function wrkAvailable(): boolean {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (error) {
    // wrk prints its version and exits 1; only a missing binary is "not available".
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

const lua = (value: string) => JSON.stringify(value);

/** A wrk script that sets method, headers and body, rotating bodies/header sets per request. */
function script(options: LoadOptions): string {
  const lines = [`wrk.method = ${lua(options.method ?? "GET")}`];
  for (const [name, value] of Object.entries(options.headers ?? {}))
    lines.push(`wrk.headers[${lua(name)}] = ${lua(value)}`);
  const bodies = options.bodies ?? [];
  const headerSets = options.headerSets ?? [];
  lines.push(`local bodies = {${bodies.map(lua).join(",")}}`);
  lines.push(
    `local headerSets = {${headerSets
      .map(
        (set) =>
          `{${Object.entries(set)
            .map(([name, value]) => `[${lua(name)}]=${lua(value)}`)
            .join(",")}}`,
      )
      .join(",")}}`,
  );
  const requests = options.requests ?? [];
  // Bodies of a mix are few and shared: one table of them, referenced by index.
  const mixBodies = [...new Set(requests.flatMap((entry) => (entry.body === undefined ? [] : [entry.body])))];
  const headerTable = (headers: Record<string, string> = {}) =>
    `{${Object.entries(headers)
      .map(([name, value]) => `[${lua(name)}]=${lua(value)}`)
      .join(",")}}`;
  lines.push(`local mixBodies = {${mixBodies.map(lua).join(",")}}`);
  lines.push(
    `local mix = {${requests.map((entry) => `{${lua(entry.method)},${lua(entry.path)},${headerTable(entry.headers)},${entry.body === undefined ? 0 : mixBodies.indexOf(entry.body) + 1}}`).join(",\n")}}`,
  );
  lines.push(`local counter = 0`);
  // done() runs in the main Lua state, not the worker's: keep the threads to read their counts back.
  lines.push(`local threads = {}`);
  lines.push(`setup = function(thread) table.insert(threads, thread) end`);
  lines.push(`request = function()
  counter = counter + 1
  if #mix > 0 then
    local entry = mix[(counter - 1) % #mix + 1]
    local body = nil
    if entry[4] > 0 then body = mixBodies[entry[4]] end
    return wrk.format(entry[1], entry[2], entry[3], body)
  end
  local headers = {}
  for k, v in pairs(wrk.headers) do headers[k] = v end
  if #headerSets > 0 then for k, v in pairs(headerSets[(counter - 1) % #headerSets + 1]) do headers[k] = v end end
  local body = wrk.body
  if #bodies > 0 then body = bodies[(counter - 1) % #bodies + 1] end
  return wrk.format(nil, nil, headers, body)
end`);
  lines.push(`response = function(status) local key = "status_" .. status; _G[key] = (_G[key] or 0) + 1 end`);
  lines.push(`done = function()
  local totals = {}
  for _, thread in ipairs(threads) do
    for status = 100, 599 do
      local count = thread:get("status_" .. status)
      if count then totals[status] = (totals[status] or 0) + count end
    end
  end
  for status, count in pairs(totals) do io.write("STATUS " .. status .. " " .. count .. "\\n") end
end`);
  return lines.join("\n");
}

function milliseconds(text: string): number {
  const match = /([\d.]+)(us|ms|s)/.exec(text);
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === "us" ? value / 1000 : match[2] === "s" ? value * 1000 : value;
}

/** One run of wrk (one thread: it needs far less CPU than the server it loads). */
export async function runWrk(options: LoadOptions): Promise<LoadResult> {
  const dir = await mkdtemp(join(tmpdir(), "wrk-"));
  const file = join(dir, "script.lua");
  await writeFile(file, script(options));
  const { stdout } = await run(
    "wrk",
    ["-t1", `-c${options.connections ?? 32}`, `-d${options.seconds ?? 5}s`, "--latency", "-s", file, options.url],
    { maxBuffer: 1 << 20 },
  );
  const statusCodes: Record<string, number> = {};
  for (const [, status, count] of stdout.matchAll(/^STATUS (\d+) (\d+)$/gm)) statusCodes[status ?? ""] = Number(count);
  const total = Object.values(statusCodes).reduce((sum, count) => sum + count, 0);
  const non2xx = Object.entries(statusCodes)
    .filter(([status]) => !status.startsWith("2"))
    .reduce((sum, [, count]) => sum + count, 0);
  const errors = Number(
    /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
      .exec(stdout)
      ?.slice(1)
      .reduce((sum, value) => sum + Number(value), 0) ?? 0,
  );
  return {
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0),
    p50Ms: milliseconds(/^\s+50%\s+(\S+)/m.exec(stdout)?.[1] ?? ""),
    p99Ms: milliseconds(/^\s+99%\s+(\S+)/m.exec(stdout)?.[1] ?? ""),
    errors,
    non2xx,
    total,
    statusCodes,
  };
}
