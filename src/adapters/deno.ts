import type { Tuning } from "../http/settings.ts";

/**
 * Deno: a new `Response` copies the bytes it is given, a clone of one
 * shares them, so repeated answers are clones of one built per variant.
 * Its server's shutdown fails a request body still arriving ("Cannot read
 * body as underlying resource unavailable"), so a stopping server lets the
 * requests with a body be answered before it shuts down.
 *
 * @example
 * ```ts
 * import { denoTuning } from "./deno.ts";
 * denoTuning.cloneResponses; // true
 * ```
 */
export const denoTuning: Tuning = { cloneResponses: true, shutdownCutsBodies: true };
