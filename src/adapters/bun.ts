import type { Tuning } from "../http/settings.ts";

/** Bun's global, where this module runs (main.ts picks it only under Bun). */
declare const Bun: { gc(force: boolean): void } | undefined;

/**
 * Bun: as under Deno, a clone of a built `Response` shares its body, so
 * repeated answers are clones. Its collector lets the large buffers of
 * evicted answers pile up between its own collections (a test of distinct
 * large pages saw the peak run 5 to 7 budgets past the warm server), so
 * the answer store asks it for a full collection each time a budget's
 * worth has been evicted: `Bun.gc(true)` brought that peak to about 3
 * budgets (tests/memory_test.ts); `Bun.gc(false)`, which does not block,
 * to about 6. A pause once per 64 MB of evicted answers is the price.
 *
 * @example
 * ```ts
 * import { bunTuning } from "./bun.ts";
 * bunTuning.cloneResponses; // true
 * ```
 */
export const bunTuning: Tuning = {
  cloneResponses: true,
  collectGarbage: () => {
    if (typeof Bun !== "undefined") Bun.gc(true);
  },
};
