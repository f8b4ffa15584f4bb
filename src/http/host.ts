import { quoteValue } from "../util/quote.ts";

/**
 * A `Host` header that can name an origin: a name or IPv4 address, or an
 * IPv6 address in brackets, and an optional port.
 */
const HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

/**
 * What is wrong with a request's `Host` header and URL, or `undefined` when
 * they can form a URL (SPEC 9): a `Host` that is not `name[:port]` or
 * `[ipv6][:port]` with a port up to 65535. Under Deno the request URL is the
 * Host and the path joined, so a Host holding `/` or `?` would otherwise
 * steer routing.
 *
 * @example
 * ```ts
 * import { hostProblem } from "./host.ts";
 * hostProblem(new Request("http://localhost:8000/")); // undefined
 * hostProblem(new Request("http://x/", { headers: { Host: "a b" } })); // 'the Host header "a b" …'
 * ```
 */
export function hostProblem(request: Request): string | undefined {
  const host = request.headers.get("Host");
  const match = host === null ? undefined : HOST.exec(host);
  let parses = true;
  try {
    new URL(request.url);
  } catch {
    parses = false;
  }
  if (parses && match !== null && (match?.[1] === undefined || +match[1] <= 65535)) {
    return undefined;
  }
  const shown = host === null ? "" : ` ${quoteValue(host)}`;
  return `the Host header${shown} does not name a host (name[:port])`;
}
