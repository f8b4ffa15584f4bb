/**
 * Code-unit order, the same on every runtime and locale: the "path order"
 * of SPEC 3 and 5.
 *
 * @example
 * ```ts
 * import { compareText } from "./compare.ts";
 * ["b", "a"].sort(compareText); // ["a", "b"]
 * ```
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
