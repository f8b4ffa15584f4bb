import type { Tuning } from "../http/settings.ts";
import { bunTuning } from "./bun.ts";
import { denoTuning } from "./deno.ts";
import { nodeTuning } from "./node.ts";

/** The runtime this process runs on. */
export type Runtime = "deno" | "bun" | "node";

/**
 * The runtime this process runs on, by the global each one defines.
 *
 * @example
 * ```ts
 * import { currentRuntime } from "./mod.ts";
 * currentRuntime(); // "deno" under Deno
 * ```
 */
export function currentRuntime(): Runtime {
  if ("Deno" in globalThis) return "deno";
  if ("Bun" in globalThis) return "bun";
  return "node";
}

/**
 * How responses are best built on a runtime: the one place where the
 * service knows which runtime it runs on (Hono's adapters, in spirit).
 *
 * @example
 * ```ts
 * import { tuningFor } from "./mod.ts";
 * tuningFor("deno").cloneResponses; // true
 * ```
 */
export function tuningFor(runtime: Runtime): Tuning {
  return runtime === "deno" ? denoTuning : runtime === "bun" ? bunTuning : nodeTuning;
}
