import { Worker } from "node:worker_threads";
import { z } from "zod";

/** One schema violation as the validator (Ajv) reports it. */
export const SchemaViolationSchema = z.object({
  instancePath: z.string(),
  keyword: z.string(),
  params: z.record(z.string(), z.unknown()),
  message: z.string().optional(),
});
export type SchemaViolation = z.infer<typeof SchemaViolationSchema>;

const ReplySchema = z.union([
  z.object({ id: z.number(), valid: z.boolean(), errors: z.union([z.string(), z.array(SchemaViolationSchema)]) }),
  z.object({ id: z.number(), failure: z.string() }),
]);

export type SchemaValidation = { valid: boolean; errors: string | SchemaViolation[] };

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, { resolve(value: SchemaValidation): void; reject(error: Error): void }>();

function failAll(error: Error): void {
  for (const waiter of pending.values()) waiter.reject(error);
  pending.clear();
  worker = null;
}

/** The process's one validation thread, started on first use and left to die with the process when idle. */
function validationThread(): Worker {
  if (worker !== null) return worker;
  // No inherited execArgv: a parent's flags (a debugger, a heap cap) are not the validator's.
  const started = new Worker(new URL("./validator-worker.mjs", import.meta.url), { execArgv: [] });
  started.on("message", (raw: unknown) => {
    const reply = ReplySchema.parse(raw);
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    // Idle, the thread must not keep the process alive (the CLI would never exit); busy, it must (a reply is awaited).
    if (pending.size === 0) started.unref();
    if (waiter === undefined) return;
    if ("failure" in reply) waiter.reject(new Error(`the OpenAPI validator failed: ${reply.failure}`));
    else waiter.resolve({ valid: reply.valid, errors: reply.errors });
  });
  started.on("error", (error) => failAll(error));
  started.on("exit", () => failAll(new Error("the OpenAPI validator thread exited")));
  worker = started;
  return started;
}

/** Validates a parsed OpenAPI document against its version's official JSON Schema, off the scanning thread. */
export function validateOpenApiSchema(spec: Record<string, unknown>): Promise<SchemaValidation> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    const thread = validationThread();
    thread.ref();
    thread.postMessage({ id, spec });
  });
}
