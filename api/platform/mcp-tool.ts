import type { z } from "zod";
import type { ServiceState } from "../../src/lib/discovery/state.ts";
import type { BuildContext } from "../../src/lib/outputs/artifact.ts";
import { findOperation, type OperationId } from "../../src/lib/registry.ts";
import type { ToolAnnotationsSchema } from "../../src/schemas/mcp.ts";
import type { BearerResource } from "./auth/bearer.ts";
import type { OperationDefinition } from "./operations/definition.ts";
import { type OperationDeps, performOperation } from "./operations/prepare-call.ts";
import { validationProblem, violationsOf } from "./violations.ts";

/** What a tool call knows about the HTTP request that carried it. */
export interface ToolContext {
  /** Content and public URLs, as the build had them: the same functions build the same documents. */
  site: BuildContext;
  state: ServiceState;
  clientAddress: string;
  /** The MCP request's headers: tools that act for a registration take the agent token from `Authorization`. */
  headers: Headers;
  operations: OperationDeps;
  /** How an MCP client without a token gets one: "with the register_agent tool" while that tool is listed. */
  tokenSource?: string;
  /** The protected resource the MCP endpoint is (`/mcp/agent`); the public `/mcp` is none, so it takes agent tokens only. */
  resource?: BearerResource;
}

type Annotations = z.infer<typeof ToolAnnotationsSchema>;
type ObjectSchema = z.ZodType<Record<string, unknown>>;

/** One MCP tool: described by zod schemas, backed by the same work as its HTTP operation. */
export interface Tool {
  name: string;
  title: string;
  description: string;
  /** The registry operation it mirrors: the tool is listed only while that operation is available. */
  operation: OperationId;
  authentication: "none" | "bearer";
  annotations: Annotations;
  input: ObjectSchema;
  output: ObjectSchema;
  /** Validates the arguments (a 422-style problem listing every violation), runs, and checks the output against its schema. */
  invoke(args: unknown, context: ToolContext): Promise<Record<string, unknown>>;
}

interface Presentation<O extends ObjectSchema> {
  name: string;
  title: string;
  description: string;
  annotations: Annotations;
  output: O;
}

export const READ_ONLY: Annotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

function parsed<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw validationProblem(violationsOf(result.error));
  return result.data;
}

/** A read-only tool over published content (static operations: no token, no limit of their own). */
export function defineTool<I extends ObjectSchema, O extends ObjectSchema>(
  spec: Presentation<O> & {
    operation: OperationId;
    input: I;
    run(args: z.output<I>, context: ToolContext): Promise<z.input<O>>;
  },
): Tool {
  return {
    ...spec,
    authentication: "none",
    async invoke(args, context) {
      // A result that breaks its own schema is our bug: it fails loudly rather than reaching the client.
      return spec.output.parse(await spec.run(parsed(spec.input, args), context));
    },
  };
}

/**
 * The MCP tool of a registry operation: the same definition its HTTP route runs, so the token, scope,
 * rate limit, switch, components and body schema are the registry's. The arguments are the request
 * body, or (for an operation without one) the path parameters described by `params`.
 */
export function operationTool<Id extends OperationId, Found, O extends ObjectSchema>(
  definition: OperationDefinition<Id, Found, z.input<O>>,
  bodySchemas: OperationDeps["bodySchemas"],
  spec: Presentation<O> & { params?: z.ZodType<Record<string, string>> },
): Tool {
  const operation = findOperation(definition.id);
  const body = operation.requestSchema ? bodySchemas[operation.requestSchema] : undefined;
  const input = (spec.params ?? body) as ObjectSchema | undefined;
  if (!input) throw new Error(`Tool ${spec.name}: ${definition.id} takes no body, so it needs params`);
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    annotations: spec.annotations,
    output: spec.output,
    input,
    operation: definition.id,
    authentication: operation.authentication.type,
    async invoke(args, context) {
      const { result } = await performOperation(
        definition,
        {
          address: context.clientAddress,
          headers: context.headers,
          params: spec.params ? parsed(spec.params, args) : {},
          readBody: async (schema) => parsed(schema, args),
          ...(context.tokenSource ? { tokenSource: context.tokenSource } : {}),
          ...(context.resource ? { resource: context.resource } : {}),
        },
        context.operations,
      );
      return spec.output.parse(result);
    },
  };
}
