// Which MCP requests a server answers (SPEC 14): the transport's rule that a
// server validates `Origin` (and, bound to a loopback address, `Host`), so a
// web page cannot reach a server on the user's machine by DNS rebinding.
import { quoteValue } from "../util/quote.ts";

/** What decides which MCP requests are refused, beside the config's `allowed_origins`. */
export interface OriginPolicy {
  /**
   * The address the server listens on, as given to the runtime's `serve`
   * (`127.0.0.1`, `::1`, `localhost`, `0.0.0.0`); `undefined`: not known
   * (a `fetch` handler served by its user), treated as a non-loopback one.
   */
  readonly listenHostname?: string;
  /** The configured base URL, if any (never a request's own origin, which its `Host` names). */
  readonly baseUrl?: string;
}

/**
 * The host name a `Host` value (`name[:port]`, `[ipv6][:port]`) or a bare
 * address (`::1`) names, as `URL` spells it (lowercase, IPv6 in brackets,
 * IPv4 in four decimal parts); `undefined` when it names no host.
 */
function normalHostname(host: string): string | undefined {
  // A bare IPv6 address has colons of its own; a Host's one colon is its port's.
  const bracketed = host.split(":").length > 2 && !host.startsWith("[") ? `[${host}]` : host;
  try {
    return new URL(`http://${bracketed}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * Whether a host name (or a listening address) is `localhost` or a loopback
 * address: `127.0.0.0/8`, `::1`, or an IPv4 loopback address mapped to IPv6.
 *
 * @example
 * ```ts
 * import { isLoopback } from "./mcp_origin.ts";
 * isLoopback("127.0.0.1"); // true
 * isLoopback("::1"); // true
 * isLoopback("0.0.0.0"); // false
 * ```
 */
export function isLoopback(host: string): boolean {
  const hostname = normalHostname(host);
  return hostname === "localhost" || hostname === "[::1]" ||
    /^127\.\d+\.\d+\.\d+$/.test(hostname ?? "") ||
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(hostname ?? "");
}

/** An `Origin` header's origin as `URL.origin` spells it, or `undefined` (`null`, or no URL). */
function originOf(header: string): URL | undefined {
  try {
    const url = new URL(header);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

const quote = (text: string) => quoteValue(text, 200);

/**
 * Why an MCP request is refused (a `403`), or `undefined` when it is
 * answered (SPEC 14):
 *
 * - on a server bound to a loopback address, a request whose `Host` names
 *   another host than `localhost`, a loopback address, the configured base
 *   URL's host or the host of an allowed origin; or whose `Origin` is
 *   neither on a loopback host, nor the base URL's origin, nor an allowed
 *   origin (a reverse proxy on the same machine that sends the public host
 *   keeps working);
 * - on any other address (or an unknown one), when `allowedOrigins` is
 *   set, a request whose `Origin` is neither the base URL's origin nor one
 *   of them. A request without `Origin` (an agent, not a browser) passes.
 *
 * @example
 * ```ts
 * import { mcpOriginRefusal } from "./mcp_origin.ts";
 * const request = new Request("http://127.0.0.1:8000/api/mcp", {
 *   method: "POST",
 *   headers: { Host: "evil.example.com", Origin: "http://evil.example.com" },
 * });
 * mcpOriginRefusal(request, { listenHostname: "127.0.0.1" }, undefined); // 'the Host "evil.example.com" …'
 * ```
 */
export function mcpOriginRefusal(
  request: Request,
  policy: OriginPolicy,
  allowedOrigins: readonly string[] | undefined,
): string | undefined {
  const origin = request.headers.get("Origin");
  const loopback = policy.listenHostname !== undefined && isLoopback(policy.listenHostname);
  if (!loopback && (allowedOrigins === undefined || origin === null)) return undefined;
  const base = policy.baseUrl === undefined ? undefined : new URL(policy.baseUrl);
  const allowed = new Set(allowedOrigins);
  if (base) allowed.add(base.origin);
  const named = loopback
    ? "localhost, a loopback address, the configured url's host or an origin of mcp.allowed_origins"
    : "the configured url's origin or one of mcp.allowed_origins";
  if (loopback) {
    const host = request.headers.get("Host") ?? new URL(request.url).host;
    const hostname = normalHostname(host);
    const known = hostname !== undefined &&
      (isLoopback(hostname) || [...allowed].some((o) => new URL(o).hostname === hostname));
    if (!known) {
      return `the Host ${quote(host)} is not ${named}: this server listens on a loopback ` +
        "address and refuses other hosts' requests (DNS rebinding protection)";
    }
  }
  if (origin === null) return undefined;
  const url = originOf(origin);
  if (url && ((loopback && isLoopback(url.hostname)) || allowed.has(url.origin))) return undefined;
  return `the Origin ${quote(origin)} is not ${named}`;
}
