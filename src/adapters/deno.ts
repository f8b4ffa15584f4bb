import type { Tuning } from "../http/settings.ts";

/**
 * Deno: a new `Response` copies the bytes it is given, a clone of one
 * shares them, so repeated answers are clones of one built per variant.
 *
 * @example
 * ```ts
 * import { denoTuning } from "./deno.ts";
 * denoTuning.cloneResponses; // true
 * ```
 */
export const denoTuning: Tuning = { cloneResponses: true };
