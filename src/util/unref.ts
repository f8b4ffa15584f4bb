// A timer that does not keep a process alive that has nothing else to do.

/**
 * Unreferences `timer` where the runtime can (Deno, Bun and Node all can;
 * a web timer's number has no `unref`), and returns it.
 *
 * @example
 * ```ts
 * import { unref } from "./unref.ts";
 * const timer = unref(setTimeout(() => {}, 60_000)); // the process may exit before it fires
 * clearTimeout(timer);
 * ```
 */
export function unref<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
