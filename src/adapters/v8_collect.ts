// A full collection of V8's heap, asked for by a program that need not be
// started with `--expose-gc` (Deno and Node; Bun has `Bun.gc`). Used after
// a load that derived most of a site (`Tuning.collectAfterLoad`).
import process from "node:process";

/** The collector's `gc()`, once found (`null`: this runtime does not give it). */
let collector: (() => void) | null | undefined;

/**
 * Runs a full garbage collection, synchronously. The first call finds
 * V8's `gc()` in a context made while `--expose-gc` is set for a moment
 * (`node:v8`'s `setFlagsFromString`, then `node:vm`; both asked for here,
 * not imported, so a start that never collects never loads them), else
 * the global one of a process started with the flag; where neither works
 * it does nothing. Under Deno the context's `gc()` is V8's low-memory
 * collection (two compacting rounds, which give the heap's spare pages
 * back), the global one a single collection, which lowered a first
 * start's peak far less (`docs/performance.md`); under Node both are one
 * collection.
 *
 * @example
 * ```ts
 * import { collectV8Garbage } from "./v8_collect.ts";
 * collectV8Garbage(); // the heap's garbage is gone
 * ```
 */
export function collectV8Garbage(): void {
  if (collector === undefined) collector = findCollector();
  try {
    collector?.();
  } catch {
    // a hint to the collector: a start never fails for it
  }
}

function findCollector(): (() => void) | null {
  const given = (globalThis as { gc?: unknown }).gc;
  try {
    const v8 = process.getBuiltinModule("node:v8");
    v8.setFlagsFromString("--expose-gc");
    try {
      const gc = process.getBuiltinModule("node:vm").runInNewContext("gc");
      if (typeof gc === "function") return gc;
    } finally {
      // Only the context made above has it, unless the process was started with the flag.
      if (typeof given !== "function") v8.setFlagsFromString("--no-expose-gc");
    }
  } catch {
    // no `node:v8` or `node:vm` to ask: the global one, if any
  }
  return typeof given === "function" ? given as () => void : null;
}
