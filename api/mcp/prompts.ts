import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ErrorCode,
  GetPromptRequestSchema,
  type GetPromptResult,
  ListPromptsRequestSchema,
  McpError,
  type Prompt,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { isOperationAvailable, type ServiceState } from "../../src/lib/discovery/state.ts";
import { findOperation, type OperationId } from "../../src/lib/registry.ts";
import { absolute } from "../../src/lib/urls.ts";
import type { RequestSchemas } from "../../src/schemas/requests/bodies.ts";
import type { ServiceSettings } from "../../src/schemas/service.ts";
import { violationsOf } from "../platform/violations.ts";
import type { ToolListing } from "./catalogue.ts";

/** Names one step of a flow: the MCP tool that performs an operation, or its HTTP call where it has no tool. */
export type StepWriter = (operation: OperationId) => string;

type PromptArguments = z.ZodObject<Record<string, z.ZodType<string | undefined>>>;

/** One useful flow as an MCP prompt: typed arguments and a message that says which calls to make, in order. */
export interface FlowPrompt {
  name: string;
  title: string;
  description: string;
  /** The operations the flow cannot start without: the prompt is listed while they are available. */
  needs: readonly OperationId[];
  arguments: PromptArguments;
  /** The message text; arguments that break their schema are an Invalid Params error naming each one. */
  render(args: Record<string, string> | undefined, step: StepWriter): string;
}

export function definePrompt<A extends PromptArguments>(
  prompt: Omit<FlowPrompt, "arguments" | "render"> & {
    arguments: A;
    message(args: z.output<A>, step: StepWriter): string;
  },
): FlowPrompt {
  const { message, ...rest } = prompt;
  return {
    ...rest,
    render(args, step) {
      const parsed = prompt.arguments.safeParse(args ?? {});
      if (parsed.success) return message(parsed.data, step);
      const errors = violationsOf(parsed.error);
      const detail = errors.map((error) => `${error.pointer.slice(2)} ${error.detail}`).join("; ");
      throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for prompt ${prompt.name}: ${detail}`, { errors });
    },
  };
}

const JsonObjectSchema = z.record(z.string(), z.unknown());

/** The properties of a JSON Schema object, or of every branch of a union (required only if every branch requires it). */
function propertiesOf(schema: Record<string, unknown>): { names: string[]; required: Set<string> } {
  const branches = z
    .array(JsonObjectSchema)
    .catch([])
    .parse(schema.anyOf ?? schema.oneOf);
  if (branches.length > 0) {
    const each = branches.map(propertiesOf);
    const names = [...new Set(each.flatMap((branch) => branch.names))];
    return { names, required: new Set(names.filter((name) => each.every((branch) => branch.required.has(name)))) };
  }
  return {
    names: Object.keys(JsonObjectSchema.catch({}).parse(schema.properties)),
    required: new Set(z.array(z.string()).catch([]).parse(schema.required)),
  };
}

/** "`domain`, optional `profile`": the fields a JSON Schema object takes. */
function fieldList(schema: Record<string, unknown>): string {
  const { names, required } = propertiesOf(schema);
  if (names.length === 0) return "no arguments";
  return names.map((name) => (required.has(name) ? `\`${name}\`` : `optional \`${name}\``)).join(", ");
}

function describePrompt(prompt: FlowPrompt): Prompt {
  return {
    name: prompt.name,
    title: prompt.title,
    description: prompt.description,
    arguments: Object.entries(prompt.arguments.shape).map(([name, field]) => ({
      name,
      ...(field.description ? { description: field.description } : {}),
      required: !field.safeParse(undefined).success,
    })),
  };
}

/**
 * The flow prompts. A step names the active tool that mirrors its operation (so a prompt never names a
 * tool that tools/list lacks), or the HTTP call with the body fields its published schema takes.
 */
export class PromptBook {
  readonly #prompts: readonly FlowPrompt[];
  readonly #siteUrl: string;
  readonly #bodyFields = new Map<string, string>();
  readonly #bodySchemas: RequestSchemas;

  constructor(prompts: readonly FlowPrompt[], siteUrl: string, bodySchemas: RequestSchemas) {
    this.#prompts = prompts;
    this.#siteUrl = siteUrl;
    this.#bodySchemas = bodySchemas;
  }

  #httpStep(operationId: OperationId): string {
    const operation = findOperation(operationId);
    const call = `\`${operation.method} ${absolute(this.#siteUrl, operation.path)}\``;
    const name = operation.requestSchema;
    if (!name) return call;
    let fields = this.#bodyFields.get(name);
    if (fields === undefined) {
      const schema = z.toJSONSchema(this.#bodySchemas[name], { io: "input", unrepresentable: "any" });
      fields = fieldList(schema);
      this.#bodyFields.set(name, fields);
    }
    return `${call} with a JSON body of ${fields}`;
  }

  #writer(listing: ToolListing, state: ServiceState, service: ServiceSettings): StepWriter {
    return (operationId) => {
      if (!isOperationAvailable(findOperation(operationId), state, service))
        return `${this.#httpStep(operationId)} (unavailable right now: the service_status tool says why)`;
      const index = listing.tools.findIndex((tool) => tool.operation === operationId);
      const description = listing.descriptions[index];
      if (!description) return this.#httpStep(operationId);
      return `call the tool \`${description.name}\` (${fieldList(description.inputSchema)})`;
    };
  }

  active(state: ServiceState, service: ServiceSettings): FlowPrompt[] {
    return this.#prompts.filter((prompt) =>
      prompt.needs.every((id) => isOperationAvailable(findOperation(id), state, service)),
    );
  }

  /** Answers prompts/list and prompts/get on `server` for the tools active in this request. */
  serveOn(server: Server, listing: ToolListing, state: ServiceState, service: ServiceSettings): void {
    const prompts = this.active(state, service);
    server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: prompts.map(describePrompt) }));
    server.setRequestHandler(GetPromptRequestSchema, (request): GetPromptResult => {
      const prompt = prompts.find((candidate) => candidate.name === request.params.name);
      if (!prompt)
        throw new McpError(ErrorCode.InvalidParams, `No prompt ${request.params.name}; prompts/list lists them.`);
      const text = prompt.render(request.params.arguments, this.#writer(listing, state, service));
      return { description: prompt.description, messages: [{ role: "user", content: { type: "text", text } }] };
    });
  }
}
