import type { Tuning } from "../http/settings.ts";

/**
 * Bun: as under Deno, a clone of a built `Response` shares its body, so
 * repeated answers are clones.
 *
 * @example
 * ```ts
 * import { bunTuning } from "./bun.ts";
 * bunTuning.cloneResponses; // true
 * ```
 */
export const bunTuning: Tuning = { cloneResponses: true };
