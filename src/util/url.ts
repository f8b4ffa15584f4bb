/**
 * A root-relative URL (an item's `url`, a root-relative `image`) made
 * absolute with the base URL; an absolute one (or a protocol-relative
 * `//host/…`) as it is.
 *
 * @example
 * ```ts
 * import { absoluteUrl } from "./url.ts";
 * absoluteUrl("/docs/intro", "https://example.com"); // "https://example.com/docs/intro"
 * absoluteUrl("https://other.example/x", "https://example.com"); // "https://other.example/x"
 * ```
 */
export function absoluteUrl(url: string, base: string): string {
  return url.startsWith("/") && !url.startsWith("//") ? base + url : url;
}
