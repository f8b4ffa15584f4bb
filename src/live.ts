import { watchFolder } from "./source/fs.ts";

/** How {@link keepLive} keeps an index current. */
export interface LiveOptions {
  /** The content root to watch. */
  readonly root: string;
  /** Watch with the runtime's recursive watcher (`true`), or only poll (`"poll"`). */
  readonly mode: true | "poll";
  /** Polling period in ms, where the runtime cannot watch (or with `"poll"`). */
  readonly pollInterval: number;
  /**
   * Period in ms of a full re-listing (stats only; it reads only files whose
   * size or modification time changed): the safety net for watch events
   * that were lost or coalesced (SPEC 10 "Convergence"). `0` turns it off.
   */
  readonly relistInterval: number;
  /**
   * Re-reads the named paths (absolute), or lists everything without
   * `paths`; resolves with whether it listed every plugin folder.
   */
  readonly reload: (paths?: readonly string[]) => Promise<{ listed: boolean }>;
  /** Where a watcher failure is reported (the service then polls). */
  readonly warn: (message: string) => void;
}

/** How long after a change event the index is rebuilt; further events in this window join it. */
const SETTLE_MS = 60;
/**
 * After a change that needed a full listing (a folder added, moved or
 * removed), one more full listing this much later: a recursive watcher
 * starts watching a new folder only after it sees it, so files written into
 * it at once can pass unseen.
 */
const FOLLOW_UP_MS = 1000;

/**
 * Keeps an index current (SPEC 10): watches the content root and reloads
 * the paths each burst of events names, polls where watching is not
 * possible, and re-lists everything periodically and after structural
 * changes, so that the index converges on what is on disk. Returns the
 * function that stops it all.
 *
 * @example
 * ```ts
 * import { keepLive } from "./live.ts";
 * const stop = keepLive({
 *   root: "/site/content", mode: true, pollInterval: 1000, relistInterval: 60_000,
 *   reload: async () => ({ listed: true }), warn: console.warn,
 * });
 * stop();
 * ```
 */
export function keepLive(options: LiveOptions): () => void {
  const { root, reload } = options;
  let closed = false;
  let stopWatching: (() => void) | undefined;
  let settle: ReturnType<typeof setTimeout> | undefined;
  let followUp: ReturnType<typeof setTimeout> | undefined;
  const timers: ReturnType<typeof setInterval>[] = [];
  const every = (ms: number, run: () => void) => {
    if (ms > 0 && !closed) timers.push(setInterval(run, ms));
  };
  const relist = () => void reload();
  const startPolling = () => every(options.pollInterval, relist);

  // The paths named in the settle window; `undefined` when an event named
  // none, which means a full listing.
  let changed: Set<string> | undefined = new Set();
  const onChange = (name: string | undefined) => {
    if (closed) return;
    if (name === undefined) changed = undefined;
    else changed?.add(`${root}/${name}`);
    if (settle !== undefined) return;
    settle = setTimeout(() => {
      const paths = changed ? [...changed] : undefined;
      changed = new Set();
      settle = undefined;
      reload(paths).then(({ listed }) => {
        if (!listed || closed) return;
        clearTimeout(followUp);
        followUp = setTimeout(relist, FOLLOW_UP_MS);
      });
    }, SETTLE_MS);
  };
  if (options.mode !== "poll") {
    stopWatching = watchFolder(root, onChange, (error) => {
      options.warn(`warning: watching ${root} failed (${error}); polling instead`);
      stopWatching?.();
      stopWatching = undefined;
      startPolling();
    });
  }
  if (!stopWatching) startPolling();
  every(options.relistInterval, relist);
  // Timers must not keep a process alive that has nothing else to do.
  for (const timer of timers) (timer as { unref?: () => void }).unref?.();

  return () => {
    closed = true;
    stopWatching?.();
    clearTimeout(settle);
    clearTimeout(followUp);
    for (const timer of timers) clearInterval(timer);
  };
}
