// A full collection of V8's heap, asked for by a program that was not
// started with `--expose-gc` (Deno and Node; Bun has `Bun.gc`). Used once
// after a load that derived most of a site (`Tuning.collectAfterLoad`).
import process from "node:process";

/** The collector's `gc()`, once found (`null`: this runtime does not give it). */
let collector: (() => void) | null | undefined;

/**
 * Runs a full garbage collection, synchronously. The first call finds
 * V8's `gc()`: the global one where the process was started with
 * `--expose-gc`, else one from a context made while the flag is set for a
 * moment (`node:v8`'s `setFlagsFromString`, then `node:vm`; both asked for
 * here, not imported, so a start that never collects never loads them).
 * Where neither works it does nothing.
 *
 * @example
 * ```ts
 * import { collectV8Garbage } from "./v8_collect.ts";
 * collectV8Garbage(); // the heap's garbage is gone
 * ```
 */
export function collectV8Garbage(): void {
  collector ??= findCollector();
  collector?.();
}

function findCollector(): (() => void) | null {
  const given = (globalThis as { gc?: unknown }).gc;
  if (typeof given === "function") return given as () => void;
  try {
    const v8 = process.getBuiltinModule("node:v8");
    v8.setFlagsFromString("--expose-gc");
    try {
      const gc = process.getBuiltinModule("node:vm").runInNewContext("gc");
      return typeof gc === "function" ? gc : null;
    } finally {
      // Only the context made above has it.
      v8.setFlagsFromString("--no-expose-gc");
    }
  } catch {
    return null;
  }
}
