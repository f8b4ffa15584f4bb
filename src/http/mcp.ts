import { createAnswerBudget, jsonTextBytes } from "../outputs/mcp_budget.ts";
import type { ToolBackend } from "../outputs/mcp_tools.ts";
import { baseHeaders } from "./cors.ts";
import { codingFor, compress } from "./encoding.ts";
import { mcpOriginRefusal, type OriginPolicy } from "./mcp_origin.ts";
import type { HttpSettings } from "./settings.ts";

/** A `tools/call` request, as far as the handler reads it. */
interface CallTool {
  readonly params: { readonly name: string; readonly arguments?: Record<string, unknown> };
}

/**
 * A JSON-RPC error with its code. The SDK sends a thrown error's `code`
 * and `message`; its own `McpError` would put "MCP error -32602:" in the
 * message, which its client then adds again.
 */
class RpcError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** JSON-RPC's "invalid params": an unknown tool, a cursor this server did not give. */
const INVALID_PARAMS = -32602;
/** MCP's "resource not found" (`resources/read` of a URI that names no served item). */
const RESOURCE_NOT_FOUND = -32002;
/** A server error of JSON-RPC's implementation-defined range: an answer that cannot be made now. */
const SERVER_ERROR = -32000;

/** The name and version the server gives in `initialize`. */
export const SERVER_INFO = { name: "content-feed", version: "0.1.0" } as const;

/** The largest request body the server reads (tool arguments are small); larger is a `413`. */
export const MAX_MCP_BODY = 64 * 1024;

/**
 * The bytes of tool results one MCP response may hold, batch included,
 * when the service sets no other budget (`mcpAnswerBytes`): what comes in
 * is bounded (64 KiB, 100 messages), and this bounds what goes out, so a
 * 13 KB batch can never be answered with hundreds of megabytes.
 */
export const DEFAULT_MCP_ANSWER_BYTES = 8 * 1024 * 1024;

/** Options of {@link answerMcp} beyond the HTTP settings. */
export interface McpSettings extends HttpSettings, OriginPolicy {
  /** Bytes of tool results one response may hold (default {@link DEFAULT_MCP_ANSWER_BYTES}). */
  readonly mcpAnswerBytes?: number;
}

/** What answering MCP requests takes: the SDK, the tools and resources, one Ajv instance. */
type Loaded = Awaited<ReturnType<typeof load>>;

/**
 * Imports the SDK's server, its Web-standard Streamable HTTP transport and
 * the tools: about 250 ms of module loading that a service without MCP
 * clients never pays, done on the first MCP request and kept by the
 * service's handler ({@link createMcpAnswerer}).
 */
async function load() {
  const [server, transport, types, tools, resources, schemas, ajv, zod] = await Promise.all([
    import("@modelcontextprotocol/sdk/server"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("../outputs/mcp_tools.ts"),
    import("../outputs/mcp_resources.ts"),
    import("../routes/mcp_schemas.ts"),
    import("@modelcontextprotocol/sdk/validation/ajv"),
    import("zod"),
  ]);
  // A server makes its own Ajv instance unless given one (most of its
  // construction time); one, made once, serves every request's server.
  const jsonSchemaValidator = new ajv.AjvJsonSchemaValidator();
  const outputSchemas = schemas.toolOutputSchemas();
  const listed = {
    tools: tools.TOOLS.map(({ name, title, description, inputSchema, output }) => ({
      name,
      title,
      description,
      inputSchema,
      outputSchema: outputSchemas[output],
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    })),
  };
  const byName = new Map(tools.TOOLS.map((tool) => [tool.name, tool]));
  // The SDK checks a request against the schema a handler is set with, and
  // answers one that does not fit with "Internal error" (-32603). These
  // take any params, and the handlers check them against the SDK's own
  // schemas, answering -32602 (for tools/call the SDK's server does it).
  const anyParams = (method: string) =>
    zod.object({ method: zod.literal(method), params: zod.unknown().optional() });
  const requests = {
    callTool: anyParams("tools/call"),
    listResources: anyParams("resources/list"),
    readResource: anyParams("resources/read"),
  };
  return {
    server,
    transport,
    types,
    tools,
    resources,
    listed,
    byName,
    requests,
    jsonSchemaValidator,
  };
}

/**
 * Answers one `POST /api/mcp` request with the tools' backend for its
 * index, and the origins the index's settings allow (`allowed_origins`).
 */
export type McpAnswerer = (
  request: Request,
  backend: ToolBackend,
  allowedOrigins?: readonly string[],
) => Promise<Response>;

/**
 * The service's MCP server (see {@link answerMcp}): the SDK loaded on its
 * first request and kept by the answerer, not by the module. A request
 * whose `Origin` or `Host` the policy refuses (`mcp_origin.ts`) is a
 * `403` with a JSON-RPC error, before anything is loaded.
 *
 * @example
 * ```ts
 * import { createMcpAnswerer } from "./mcp.ts";
 * const answer = createMcpAnswerer({ cors: true, cacheControl: "", listenHostname: "127.0.0.1" });
 * ```
 */
export function createMcpAnswerer(settings: McpSettings): McpAnswerer {
  let loaded: Promise<Loaded> | undefined;
  return (request, backend, allowedOrigins) => {
    const refused = mcpOriginRefusal(request, settings, allowedOrigins);
    if (refused !== undefined) return Promise.resolve(forbidden(refused, settings));
    return answerMcp(request, backend, settings, loaded ??= load());
  };
}

/**
 * The `403` of a refused origin: a JSON-RPC error without an id, as the
 * transport allows, with the service's CORS headers.
 */
function forbidden(detail: string, settings: McpSettings): Response {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    error: { code: SERVER_ERROR, message: `Forbidden: ${detail}` },
    id: null,
  });
  return new (settings.tuning?.Response ?? Response)(body, {
    status: 403,
    headers: {
      ...baseHeaders(settings),
      "Content-Type": "application/json",
      "Cache-Control": "no-store",
    },
  });
}

/**
 * Answers `POST /api/mcp` (SPEC 14): a Model Context Protocol server over
 * Streamable HTTP, stateless (a server and a transport per request, no
 * session), JSON responses rather than event streams, the read-only tools
 * of `mcp_tools.ts` and the resources of `mcp_resources.ts` (every served
 * item, its link as the URI, read as Markdown). The official SDK speaks
 * the protocol: version negotiation, `initialize` (with the server's
 * `instructions`), `tools/list`, `tools/call`, `resources/list`,
 * `resources/templates/list`, `resources/read`, `ping`, and its JSON-RPC
 * errors (a malformed body `-32700`; a message that is not JSON-RPC or a
 * batch of more than 100 messages `-32600`; all `400`). An unknown tool
 * or a `resources/list` cursor this server did not give is `-32602`, a
 * URI that names no served item `-32002`; a tool's bad arguments and a
 * call that cannot be served (an unknown id, a cursor too old) are tool
 * results marked `isError`, whose text says what was wrong.
 *
 * One response holds at most `mcpAnswerBytes` of tool results and resource
 * contents (default 8 MB), batch included: the calls of a request run one
 * after another, in the order they came, and a call whose result would
 * pass what is left of the budget answers a tool error saying how to ask
 * for less (a smaller `limit`, the next page or `cursor`, the call alone),
 * so the calls that fit are answered and each of the rest says why it is
 * not. Responses carry the service's CORS headers, `Cache-Control:
 * no-store`, and are compressed like every other answer.
 *
 * @example
 * ```ts
 * import { answerMcp } from "./mcp.ts";
 * declare const backend: import("../outputs/mcp_tools.ts").ToolBackend;
 * const response = await answerMcp(new Request("http://localhost/api/mcp", {
 *   method: "POST",
 *   headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
 *   body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
 * }), backend, { cors: true, cacheControl: "" });
 * ```
 */
export async function answerMcp(
  request: Request,
  backend: ToolBackend,
  settings: McpSettings,
  sdk: Promise<Loaded> = load(),
): Promise<Response> {
  const { server, transport, types, tools, resources, listed, byName, requests } = await sdk;
  const { jsonSchemaValidator } = await sdk;
  const mcp = new server.Server(SERVER_INFO, {
    capabilities: { tools: {}, resources: {} },
    instructions: tools.serverInstructions(backend.site, backend.base),
    jsonSchemaValidator,
  });
  /** A request's params as the SDK's schema reads them, or a -32602 saying what does not fit. */
  const paramsOf = (
    schema: import("zod").ZodType,
    request: unknown,
  ): { readonly cursor?: string; readonly uri?: string } => {
    const checked = schema.safeParse(request);
    if (checked.success) return (checked.data as { params?: { uri?: string } }).params ?? {};
    const issue = checked.error.issues[0];
    throw new RpcError(
      INVALID_PARAMS,
      `Invalid ${(request as { method: string }).method} request: ${
        issue.path.filter((key) => key !== "params").join(".")
      }: ${issue.message}`,
    );
  };
  mcp.setRequestHandler(types.ListToolsRequestSchema, () => listed);
  const budget = createAnswerBudget(settings.mcpAnswerBytes ?? DEFAULT_MCP_ANSWER_BYTES);
  // The SDK starts every message of a batch at once; a chain runs the calls
  // (and reads) one at a time, in order, so at most one result beyond the
  // budget is ever held, and the calls that fit are the first ones.
  let calls: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(run: () => Promise<T>): Promise<T> => {
    const call = calls.then(run);
    calls = call.catch(() => {});
    return call;
  };
  // The SDK's server checks a call against its CallToolRequestSchema before this runs.
  mcp.setRequestHandler(requests.callTool, (request) =>
    inTurn(async () => {
      const { params } = request as CallTool;
      const tool = byName.get(params.name);
      if (!tool) {
        throw new RpcError(
          INVALID_PARAMS,
          `unknown tool ${JSON.stringify(params.name)}; tools: ${[...byName.keys()].join(", ")}`,
        );
      }
      const refused = budget.spent();
      if (refused) return refused(tool.name);
      return budget.take(tool.name, await tool.call(params.arguments, backend));
    }));
  mcp.setRequestHandler(requests.listResources, (request) => {
    const params = paramsOf(types.ListResourcesRequestSchema, request);
    const page = resources.resourcePage(backend, params.cursor);
    if ("invalid" in page) throw new RpcError(INVALID_PARAMS, page.invalid);
    return page;
  });
  mcp.setRequestHandler(
    types.ListResourceTemplatesRequestSchema,
    () => ({ resourceTemplates: resources.resourceTemplates(backend.base) }),
  );
  mcp.setRequestHandler(requests.readResource, (request) =>
    inTurn(async () => {
      const uri = paramsOf(types.ReadResourceRequestSchema, request).uri!;
      const spent = budget.spent();
      if (spent) throw new RpcError(SERVER_ERROR, spent("resources/read").content[0].text);
      const read = await resources.readResource(backend, uri);
      if (read === undefined) {
        throw new RpcError(
          RESOURCE_NOT_FOUND,
          `Resource not found: ${JSON.stringify(uri.slice(0, 300))} names no published item ` +
            `on ${backend.base}; resources/list gives their URIs`,
        );
      }
      if ("problem" in read) throw new RpcError(SERVER_ERROR, read.problem);
      const tooBig = budget.charge("resources/read", jsonTextBytes(read.contents[0].text) + 64);
      if (tooBig !== undefined) throw new RpcError(SERVER_ERROR, tooBig);
      return read;
    }));
  const http = new transport.WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_MCP_BODY,
  });
  await mcp.connect(http);
  try {
    const answer = await http.handleRequest(request);
    const bytes = invalidRequest(answer.status, new Uint8Array(await answer.arrayBuffer()));
    const headers = new Headers(answer.headers);
    for (const [name, value] of Object.entries(baseHeaders(settings))) headers.set(name, value);
    headers.set("Cache-Control", "no-store");
    headers.append("Vary", "Accept-Encoding");
    const coding = answer.status === 200 ? codingFor(request, bytes.length) : "identity";
    const body = coding === "identity" ? bytes : await compress(bytes, coding);
    if (coding !== "identity") headers.set("Content-Encoding", coding);
    headers.set("Content-Length", String(body.length));
    return new (settings.tuning?.Response ?? Response)(body.length ? body as BodyInit : null, {
      status: answer.status,
      headers,
    });
  } finally {
    await mcp.close();
  }
}

/** The SDK's answer to valid JSON that is no JSON-RPC message. */
const NOT_JSON_RPC = "Parse error: Invalid JSON-RPC message";

/**
 * A `400` body with JSON-RPC's own code for valid JSON that is not a
 * request object (`-32600`, Invalid Request) where the SDK answers `-32700`,
 * the code for JSON that does not parse; any other body as it is.
 */
function invalidRequest(status: number, bytes: Uint8Array): Uint8Array {
  if (status !== 400) return bytes;
  let answer: { error?: { code?: number; message?: string } };
  try {
    answer = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return bytes;
  }
  if (answer.error?.code !== -32700 || answer.error.message !== NOT_JSON_RPC) return bytes;
  answer.error.code = -32600;
  answer.error.message =
    "Invalid Request: not a JSON-RPC 2.0 request, notification or response (or a batch of them)";
  return new TextEncoder().encode(JSON.stringify(answer));
}
