// A turn of the event loop given to whatever waits for it: requests that
// arrived while a long synchronous step held the thread are answered before
// the next step takes it again.

/**
 * Resolves on a later turn of the event loop (a timer, not a microtask: the
 * runtime reads sockets and answers requests in between).
 *
 * @example
 * ```ts
 * import { nextTurn } from "./next_turn.ts";
 * await nextTurn(); // requests waiting for the thread are answered here
 * ```
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
