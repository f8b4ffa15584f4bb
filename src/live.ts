import { watchGitHead } from "./source/git_head.ts";
import { watchFolder } from "./source/watch.ts";
import { QUIET_MS } from "./http/quiet.ts";
import { unref } from "./util/unref.ts";

/** What a reload tells the live loop. */
export interface Reloaded {
  /** Whether it listed every plugin folder (not only the named paths). */
  readonly listed: boolean;
  /** Whether the content holds a path that is not a regular file (a FIFO, a device). */
  readonly irregular: boolean;
}

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
   * Watch the git repository that holds the content (config `git`): a
   * commit, amend, rebase or checkout reloads (with no path named: the
   * reload asks git what the new commits touched, as an edit of them would).
   */
  readonly git: boolean;
  /**
   * Re-reads the named paths (absolute), or lists everything without
   * `paths`; with `reread` and no paths, compares by checksum every file
   * read within `RACY_MS` of a change to it (`ContentLoader.load`).
   */
  readonly reload: (paths?: readonly string[], reread?: boolean) => Promise<Reloaded>;
  /**
   * Whether a folder of the last listing changed since: a few stats, made
   * every {@link SWEEP_MS} while watching, so that files and folders
   * added, removed or renamed are seen even when the watcher missed them.
   */
  readonly foldersChanged: () => boolean;
  /** Where a watcher failure is reported (the service then polls). */
  readonly warn: (message: string) => void;
  /**
   * What the load before this loop found (a FIFO in the content makes it
   * poll from the start), or its promise where the loop begins before that
   * load lists anything: it watches from the start then, its reloads wait
   * for the load (the service's do), and it polls from the load's end if the
   * load found a FIFO or a device. A file changed after a load stat'ed it
   * and before a watch that began after the load would be seen only by the
   * periodic relisting.
   */
  readonly initial: Reloaded | Promise<Reloaded>;
  /**
   * Where `initial` is a promise: the watch begins once that load is done,
   * a moment later ({@link LiveOptions.startAfter}), and one full listing that
   * compares by checksum every file read near a change then catches up with
   * what changed meanwhile ({@link LiveOptions.catchUp}). The watch's start
   * (a watch per folder) and, for a restart, a second stat of every file its
   * check listed are then off the load's path; and under Deno each file a
   * load opens under a watched folder is a watch event (inotify's
   * `IN_OPEN`), which cost a first start about 30 µs of the main thread a
   * file (`docs/performance.md`).
   */
  readonly watchAfterInitial?: boolean;
  /**
   * With `watchAfterInitial`: what catches up once the watch has begun
   * (default: `reload` of everything with `reread`). The service's first
   * compares the content's key with its last load's, and builds only when
   * they differ: a stop during a build keeps no restart key.
   */
  readonly catchUp?: () => Promise<Reloaded>;
  /**
   * With `watchAfterInitial`: when the watch and its catch-up begin, once
   * the load is done (default: `QUIET_MS` after it, `http/quiet.ts`). The service's
   * waits for a quiet moment: the first requests (a full feed's writing and
   * compression grow with the site, as the load does) come first.
   */
  readonly startAfter?: Promise<void>;
  /**
   * Folders whose changes are never content (absolute): the service's own
   * state folder, which it writes after each change (watched, it would make
   * every change two).
   */
  readonly ignored?: readonly string[];
}

/** How long after the last change event the index is rebuilt; further events in this window join it. */
const SETTLE_MS = 60;
/** At most this long after the first event of a burst, the index is rebuilt however many follow. */
const SETTLE_MAX_MS = 1000;
/** What the git watcher reports: HEAD may have moved. */
const HEAD_MOVED = Symbol("HEAD moved");
/**
 * After a change that needed a full listing (a folder added, moved or
 * removed), one more full listing this much later: a recursive watcher
 * starts watching a new folder only after it sees it, so files written into
 * it at once can pass unseen.
 */
const FOLLOW_UP_MS = 1000;
/** How often the folders of the last listing are stat'ed while watching. */
export const SWEEP_MS = 1000;
/** A watched path in a `.git` folder (or the folder itself), with either separator. */
const IN_GIT_FOLDER = /(^|[\\/])\.git([\\/]|$)/;

/**
 * Keeps an index current (SPEC 10): watches the content root and reloads
 * the paths each burst of events names; lists everything again when a
 * folder changed (whatever the watcher saw), a second after a structural
 * change, and periodically; polls where watching is not possible, and from
 * the first time the content holds a FIFO or a device (Deno's watcher
 * stops for good on one). With `git`, a new commit checked out reloads the
 * files it touched, whose dates changed though their bytes may not have.
 * Returns the function that stops it all.
 *
 * @example
 * ```ts
 * import { keepLive } from "./live.ts";
 * const stop = keepLive({
 *   root: "/site/content", mode: true, pollInterval: 1000, relistInterval: 60_000, git: true,
 *   reload: async () => ({ listed: true, irregular: false }), foldersChanged: () => false,
 *   warn: console.warn, initial: { listed: true, irregular: false },
 * });
 * stop();
 * ```
 */
export function keepLive(options: LiveOptions): () => void {
  const { root } = options;
  let closed = false;
  let stopWatching: (() => void) | undefined;
  let poll: ReturnType<typeof setInterval> | undefined;
  let settle: ReturnType<typeof setTimeout> | undefined;
  let followUp: ReturnType<typeof setTimeout> | undefined;
  /** Polling because the content held a path that is not a regular file. */
  let avoiding = false;

  const reload = (paths?: readonly string[], reread?: boolean) =>
    options.reload(paths, reread).then((result) => {
      if (!closed) adapt(result);
      return result;
    });
  const relist = () => void reload();
  const startPolling = () => {
    if (poll === undefined && !closed) poll = unref(setInterval(relist, options.pollInterval));
  };
  const stopPolling = () => {
    clearInterval(poll);
    poll = undefined;
  };

  // The paths named in the settle window; `undefined` when an event named
  // none, which means a full listing.
  let changed: Set<string> | undefined = new Set();
  /** When the first event of the settle window came. */
  let windowStart = 0;
  const fire = () => {
    const paths = changed ? [...changed] : undefined;
    changed = new Set();
    settle = undefined;
    reload(paths).then(({ listed }) => {
      if (!listed || closed) return;
      clearTimeout(followUp);
      followUp = setTimeout(relist, FOLLOW_UP_MS);
    });
  };
  /**
   * A change: a path the watcher named, `undefined` (none named: list
   * everything) or {@link HEAD_MOVED} (a reload of what the commits since
   * touched). The reload waits until no event came for {@link SETTLE_MS},
   * and at most {@link SETTLE_MAX_MS} after the first: a burst (a checkout
   * writing hundreds of files) is one reload.
   */
  const onChange = (name: string | undefined | typeof HEAD_MOVED) => {
    if (closed || avoiding) return;
    if (name === undefined) changed = undefined;
    else if (name !== HEAD_MOVED) changed?.add(`${root}/${name}`);
    const now = Date.now();
    if (settle === undefined) windowStart = now;
    else clearTimeout(settle);
    settle = setTimeout(fire, Math.max(0, Math.min(SETTLE_MS, windowStart + SETTLE_MAX_MS - now)));
  };
  const startWatching = () => {
    // A `.git` inside the content root is never content, and a commit or a
    // fetch writes hundreds of files there: the git watcher below covers it.
    const ignored = (options.ignored ?? []).flatMap((folder) =>
      folder.startsWith(`${root}/`) ? [folder.slice(root.length + 1)] : []
    );
    const onContentChange = (name: string | undefined) => {
      if (name !== undefined && IN_GIT_FOLDER.test(name)) return;
      if (name !== undefined && ignored.some((f) => name === f || name.startsWith(`${f}/`))) return;
      onChange(name);
    };
    // Left out of the watch, not only ignored: under Deno a watcher's event opens and closes the
    // file it names, which drops the state folder's journal lock (`watch.ts`).
    const unwatched = [...(options.ignored ?? []), `${root}/.git`];
    stopWatching = watchFolder(root, onContentChange, (error) => {
      options.warn(`warning: watching ${root} failed (${error}); polling instead`);
      stopWatching?.();
      stopWatching = undefined;
      startPolling();
    }, unwatched);
    if (!stopWatching) startPolling();
  };
  /**
   * Polls from the first time the content holds a FIFO or a device. Deno's
   * recursive watcher opens a FIFO it sees change and waits on it for good,
   * and closing it then freezes the process's event loop: so the watcher is
   * left as it is (its events ignored from then on), never closed.
   */
  const adapt = ({ irregular }: Reloaded) => {
    if (!irregular || avoiding || options.mode === "poll") return;
    avoiding = true;
    options.warn(
      `warning: the content holds a path that is not a regular file (see the warnings above); polling every ${options.pollInterval} ms from now on instead of watching`,
    );
    stopWatching = undefined; // abandoned, not closed: see above
    startPolling();
  };

  const initial = options.initial;
  const known = initial instanceof Promise ? undefined : initial;
  /** The watch begins after the load to come, and a listing catches up with it. */
  const later = initial instanceof Promise && options.watchAfterInitial === true &&
    options.mode !== "poll";
  let catchUp: ReturnType<typeof setTimeout> | undefined;
  if (known?.irregular && options.mode !== "poll") adapt(known);
  else if (options.mode === "poll") startPolling();
  else if (!later) startWatching();
  if (initial instanceof Promise) {
    initial.then((found) => {
      if (closed) return;
      adapt(found);
      if (!later || avoiding) return;
      const begin = () => {
        if (closed || avoiding) return;
        startWatching();
        (options.catchUp ?? (() => options.reload(undefined, true)))().then(
          (result) => !closed && adapt(result),
          () => {},
        );
      };
      if (options.startAfter) options.startAfter.then(begin, begin);
      else catchUp = unref(setTimeout(begin, QUIET_MS));
    }, () => {});
  }
  const sweep = unref(setInterval(() => {
    if (stopWatching && options.foldersChanged()) relist();
  }, SWEEP_MS));
  // A commit joins the settle window as changed files do (a checkout changes
  // both): the reload asks git what the new commits touched.
  const stopGit = options.git ? watchGitHead(root, () => onChange(HEAD_MOVED)) : undefined;
  const periodic = options.relistInterval > 0
    ? unref(setInterval(relist, options.relistInterval))
    : undefined;

  return () => {
    closed = true;
    clearTimeout(catchUp);
    stopWatching?.();
    stopGit?.();
    stopPolling();
    clearTimeout(settle);
    clearTimeout(followUp);
    clearInterval(sweep);
    clearInterval(periodic);
  };
}
