import type { z } from "zod";
import type { ServiceState } from "../../src/lib/discovery/state.ts";
import type { BuildContext } from "../../src/lib/outputs/artifact.ts";
import type { ToolAnnotationsSchema } from "../../src/schemas/mcp.ts";
import type { TokenOwner } from "../agents/sql.ts";
import type { AppServices } from "../app-services.ts";
import { authenticateBearer } from "./auth/bearer.ts";
import { validationProblem, violationsOf } from "./body.ts";

/** What a tool call knows about the HTTP request that carried it. */
export interface ToolContext {
  services: AppServices;
  /** Content and public URLs, as the build had them: the same functions build the same documents. */
  site: BuildContext;
  state: ServiceState;
  clientAddress: string;
  /** The request's `Authorization` header: tools that act for a registration take the agent token from it. */
  authorization: string | null;
  /** The registration behind the token, for tools that need one (set before they run). */
  agent: TokenOwner | null;
}

type Annotations = z.infer<typeof ToolAnnotationsSchema>;

/** One MCP tool: described by zod schemas, backed by the same service call as its HTTP operation. */
export interface Tool {
  name: string;
  title: string;
  description: string;
  /** The registry operation it mirrors: the tool is listed only while that operation is available. */
  operation: string;
  authentication: "none" | "bearer";
  annotations: Annotations;
  input: z.ZodType<Record<string, unknown>>;
  output: z.ZodType<Record<string, unknown>>;
  /** Validates the arguments (a 422-style problem listing every violation), runs, and checks the output against its schema. */
  invoke(args: unknown, context: ToolContext): Promise<Record<string, unknown>>;
}

export interface ToolSpec<I extends z.ZodType<Record<string, unknown>>, O extends z.ZodType<Record<string, unknown>>> {
  name: string;
  title: string;
  description: string;
  operation: string;
  /** Set for tools that act for a registration: the scope the token needs (`null`: any valid token). */
  scope?: string | null;
  annotations: Annotations;
  input: I;
  output: O;
  run(args: z.output<I>, context: ToolContext): Promise<z.input<O>>;
}

export const READ_ONLY: Annotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

export function defineTool<I extends z.ZodType<Record<string, unknown>>, O extends z.ZodType<Record<string, unknown>>>(
  spec: ToolSpec<I, O>,
): Tool {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    operation: spec.operation,
    authentication: spec.scope === undefined ? "none" : "bearer",
    annotations: spec.annotations,
    input: spec.input,
    output: spec.output,
    async invoke(args, context) {
      // As over HTTP: the token is checked before the body, so a caller without one learns that first.
      const agent = spec.scope === undefined ? null : await authenticate(context, spec.scope);
      const parsed = spec.input.safeParse(args ?? {});
      if (!parsed.success) throw validationProblem(violationsOf(parsed.error));
      // A result that breaks its own schema is our bug: it fails loudly rather than reaching the client.
      return spec.output.parse(await spec.run(parsed.data, { ...context, agent }));
    },
  };
}

/** The HTTP routes' check: a valid, unrevoked token with the scope; failures count against the caller's address. */
function authenticate(context: ToolContext, scope: string | null): Promise<TokenOwner> {
  const { services } = context;
  return authenticateBearer(
    context.authorization,
    { db: () => services.database.client, limiter: services.limiter, cache: services.tokenOwners },
    context.clientAddress,
    scope,
  );
}

/** The registration a bearer tool runs for; `invoke` has set it before `run`. */
export function agentOf(context: ToolContext): TokenOwner {
  if (!context.agent) throw new Error("A bearer tool ran without an authenticated agent");
  return context.agent;
}
