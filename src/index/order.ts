import type { FileFields } from "../fields/derive.ts";
import { compareText } from "../util/compare.ts";

/**
 * Sibling order (SPEC 5): by `order` ascending, items without one after
 * those with one, then newest `date` first (full timestamps, not just days),
 * then by path.
 *
 * @example
 * ```ts
 * import { compareSiblings } from "./order.ts";
 * const fields = (position: number | undefined, dateMs: number) => ({ position, dateMs });
 * compareSiblings(fields(1, 0), "b.md", fields(undefined, 9), "a.md"); // -1: an order comes first
 * compareSiblings(fields(undefined, 5), "b.md", fields(undefined, 9), "a.md"); // 4: newer first
 * ```
 */
export function compareSiblings(
  a: Pick<FileFields, "position" | "dateMs">,
  aPath: string,
  b: Pick<FileFields, "position" | "dateMs">,
  bPath: string,
): number {
  const pa = a.position, pb = b.position;
  if (pa !== undefined || pb !== undefined) {
    if (pa === undefined) return 1;
    if (pb === undefined) return -1;
    if (pa !== pb) return pa - pb;
  }
  return b.dateMs - a.dateMs || compareText(aPath, bPath);
}
