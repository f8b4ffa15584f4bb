// Author and tag objects shared among files (what a server keeps once per
// name): apart from reading names from front matter (`names.ts`), which
// loads the text code a start from the derivation cache never needs.
import type { NameSlug } from "./names.ts";

/**
 * Shares one object per author or tag name and slug among every file that
 * names it, so that an index of many files holds each name once. Made per
 * service; it forgets everything past `max` distinct names (it only saves
 * memory).
 *
 * @example
 * ```ts
 * import { createNameInterner } from "./name_interner.ts";
 * const share = createNameInterner();
 * const a = share([{ name: "Deno", slug: "deno" }]);
 * const b = share([{ name: "Deno", slug: "deno" }]);
 * a[0] === b[0]; // true
 * ```
 */
export function createNameInterner(
  max = 100_000,
): (list: readonly NameSlug[]) => readonly NameSlug[] {
  const known = new Map<string, NameSlug>();
  return (list) => {
    if (Object.isFrozen(list)) return list;
    return list.map((entry) => {
      const key = `${entry.name}\n${entry.slug}`;
      const shared = known.get(key);
      if (shared) return shared;
      if (known.size >= max) known.clear();
      known.set(key, entry);
      return entry;
    });
  };
}
