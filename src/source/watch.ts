import { watch } from "node:fs";

/**
 * Calls `onChange` when anything under `folder` changes, through the
 * runtime's recursive file watcher. Returns a function that stops watching,
 * or `undefined` when this runtime or file system cannot watch (the caller
 * then polls).
 *
 * @example
 * ```ts
 * import { watchFolder } from "./watch.ts";
 * const stop = watchFolder("content", (path) => console.log("changed", path), console.error);
 * stop?.();
 * ```
 */
export function watchFolder(
  folder: string,
  onChange: (path: string | undefined) => void,
  onError: (error: unknown) => void,
): (() => void) | undefined {
  try {
    const watcher = watch(folder, { recursive: true, persistent: false }, (_event, name) => {
      onChange(name == null ? undefined : String(name));
    });
    watcher.on("error", onError);
    return () => watcher.close();
  } catch {
    return undefined;
  }
}
