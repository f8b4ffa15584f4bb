import { createAnswerBudget } from "../outputs/mcp_budget.ts";
import type { ToolBackend } from "../outputs/mcp_tools.ts";
import { baseHeaders } from "./cors.ts";
import { codingFor, compress } from "./encoding.ts";
import type { HttpSettings } from "./settings.ts";

/** A `tools/call` request, as far as the handler reads it. */
interface CallTool {
  readonly params: { readonly name: string; readonly arguments?: Record<string, unknown> };
}

/**
 * A JSON-RPC "invalid params" error (`-32602`). The SDK sends a thrown
 * error's `code` and `message`; its own `McpError` would put "MCP error
 * -32602:" in the message, which its client then adds again.
 */
class InvalidParams extends Error {
  readonly code = -32602;
}

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
export interface McpSettings extends HttpSettings {
  /** Bytes of tool results one response may hold (default {@link DEFAULT_MCP_ANSWER_BYTES}). */
  readonly mcpAnswerBytes?: number;
}

/** What answering MCP requests takes: the SDK, the tools, one Ajv instance. */
type Loaded = Awaited<ReturnType<typeof load>>;

/**
 * Imports the SDK's server, its Web-standard Streamable HTTP transport and
 * the tools: about 250 ms of module loading that a service without MCP
 * clients never pays, done on the first MCP request and kept by the
 * service's handler ({@link createMcpAnswerer}).
 */
async function load() {
  const [server, transport, types, tools, ajv] = await Promise.all([
    import("@modelcontextprotocol/sdk/server"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("../outputs/mcp_tools.ts"),
    import("@modelcontextprotocol/sdk/validation/ajv"),
  ]);
  // A server makes its own Ajv instance unless given one (most of its
  // construction time); one, made once, serves every request's server.
  const jsonSchemaValidator = new ajv.AjvJsonSchemaValidator();
  const listed = {
    tools: tools.TOOLS.map(({ name, title, description, inputSchema }) => ({
      name,
      title,
      description,
      inputSchema,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    })),
  };
  const byName = new Map(tools.TOOLS.map((tool) => [tool.name, tool]));
  return { server, transport, types, tools, listed, byName, jsonSchemaValidator };
}

/** Answers one `POST /api/mcp` request with the tools' backend for its index. */
export type McpAnswerer = (request: Request, backend: ToolBackend) => Promise<Response>;

/**
 * The service's MCP server (see {@link answerMcp}): the SDK loaded on its
 * first request and kept by the answerer, not by the module.
 *
 * @example
 * ```ts
 * import { createMcpAnswerer } from "./mcp.ts";
 * const answer = createMcpAnswerer({ cors: true, cacheControl: "" });
 * ```
 */
export function createMcpAnswerer(settings: McpSettings): McpAnswerer {
  let loaded: Promise<Loaded> | undefined;
  return (request, backend) => answerMcp(request, backend, settings, loaded ??= load());
}

/**
 * Answers `POST /api/mcp` (SPEC 14): a Model Context Protocol server over
 * Streamable HTTP, stateless (a server and a transport per request, no
 * session), JSON responses rather than event streams, the read-only tools
 * of `mcp_tools.ts`. The official SDK speaks the protocol: version
 * negotiation, `initialize`, `tools/list`, `tools/call`, `ping`, and its
 * JSON-RPC errors (a malformed body `-32700`; a message that is not
 * JSON-RPC or a batch of more than 100 messages `-32600`; all `400`). An unknown tool or arguments a tool
 * refuses are `-32602` errors; a call that cannot be served (an unknown
 * id, a cursor too old) is a tool result marked `isError`.
 *
 * One response holds at most `mcpAnswerBytes` of tool results (default
 * 8 MB), batch included: the calls of a request run one after another, in
 * the order they came, and a call whose result would pass what is left of
 * the budget answers a tool error saying how to ask for less (a smaller
 * `limit`, the next page or `cursor`, the call alone), so the calls that
 * fit are answered and each of the rest says why it is not. Responses carry
 * the service's CORS headers, `Cache-Control: no-store`, and are compressed
 * like every other answer.
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
  const { server, transport, types, tools, listed, byName, jsonSchemaValidator } = await sdk;
  const mcp = new server.Server(SERVER_INFO, { capabilities: { tools: {} }, jsonSchemaValidator });
  mcp.setRequestHandler(types.ListToolsRequestSchema, () => listed);
  const budget = createAnswerBudget(settings.mcpAnswerBytes ?? DEFAULT_MCP_ANSWER_BYTES);
  // The SDK starts every message of a batch at once; a chain runs the calls
  // one at a time, in order, so at most one result beyond the budget is
  // ever held, and the calls that fit are the first ones.
  let calls: Promise<unknown> = Promise.resolve();
  mcp.setRequestHandler(types.CallToolRequestSchema, ({ params }: CallTool) => {
    const call = calls.then(async () => {
      const tool = byName.get(params.name);
      if (!tool) {
        throw new InvalidParams(
          `unknown tool ${JSON.stringify(params.name)}; tools: ${[...byName.keys()].join(", ")}`,
        );
      }
      const refused = budget.spent();
      if (refused) return refused(tool.name);
      let result;
      try {
        result = await tool.call(params.arguments, backend);
      } catch (error) {
        if (error instanceof tools.ToolArgumentError) {
          throw new InvalidParams(`${tool.name}: ${error.message}`);
        }
        throw error;
      }
      return budget.take(tool.name, result);
    });
    calls = call.catch(() => {});
    return call;
  });
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
