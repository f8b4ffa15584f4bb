// The base URL (SPEC 2.1): the config's `url`, else `BASE_URL` or the
// `baseUrl` option, and what an acceptable one is.
import { quoteValue } from "../util/quote.ts";
import { ConfigError } from "./types.ts";

/**
 * The base URL (SPEC 2.1): the config's `url` when set, else `fallback`
 * (the `BASE_URL` variable, or the `baseUrl` option), each without trailing
 * slashes; `undefined` means each request's own origin.
 *
 * @throws {ConfigError} when `fallback` is given and is not an absolute
 *   http(s) URL (even when the config's `url` wins: a typo should not wait
 *   for the day the config loses its `url`)
 *
 * @example
 * ```ts
 * import { resolveBaseUrl } from "./base_url.ts";
 * resolveBaseUrl(undefined, "https://example.com/"); // "https://example.com"
 * resolveBaseUrl("https://docs.example", "https://example.com"); // "https://docs.example"
 * resolveBaseUrl(undefined, undefined); // undefined
 * ```
 */
export function resolveBaseUrl(
  configured: string | undefined,
  fallback: string | undefined,
): string | undefined {
  const given = fallback?.replace(/\/+$/, "") || undefined;
  if (given !== undefined && !isHttpUrl(given)) {
    throw new ConfigError(
      `BASE_URL: expected an absolute http(s) URL, got ${quoteValue(fallback)}`,
    );
  }
  return configured ? configured.replace(/\/+$/, "") : given;
}

/**
 * Whether text is an absolute http(s) URL without query or fragment: what a
 * base URL must be, from the config or from `BASE_URL`.
 *
 * @example
 * ```ts
 * import { isHttpUrl } from "./base_url.ts";
 * isHttpUrl("https://example.com/content"); // true
 * isHttpUrl("example.com"); // false
 * ```
 */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && !url.search && !url.hash;
  } catch {
    return false;
  }
}
