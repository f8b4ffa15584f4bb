import { type Dirent, readdirSync, statSync, watch } from "node:fs";

/**
 * Calls `onChange` when anything under `folder` changes, through the
 * runtime's recursive file watcher, with the changed path relative to
 * `folder` (`undefined` when the runtime names none). Returns a function
 * that stops watching, or `undefined` when this runtime or file system
 * cannot watch (the caller then polls).
 *
 * `unwatched` folders (absolute) are left out of the watch, not only their
 * events: under Deno a recursive watcher opens and closes each file it has
 * an event for, and a process that closes a file drops every POSIX lock it
 * holds on it, SQLite's among them (the state folder's journal, written on
 * every change, would lose the lock that keeps a second server out). The
 * folders on the way to an unwatched one are watched one level deep, and
 * every other folder beside them recursively; a folder made in one of them
 * later is watched as it appears (one that cannot be is a watch error).
 * Where one of them cannot be watched at the start, the whole folder is
 * watched as one, its unwatched folders too, as before. (Deno keeps one
 * watcher for the process, checks each event against every path watched,
 * and never stops watching a path: a few watchers cost about what one does.)
 *
 * @example
 * ```ts
 * import { watchFolder } from "./watch.ts";
 * const stop = watchFolder("/site/content", (path) => console.log("changed", path), console.error,
 *   ["/site/content/.content-feed"]);
 * stop?.();
 * ```
 */
export function watchFolder(
  folder: string,
  onChange: (path: string | undefined) => void,
  onError: (error: unknown) => void,
  unwatched: readonly string[] = [],
): (() => void) | undefined {
  // Relative to `folder`, those strictly inside it: the others are not watched anyway.
  const left = unwatched.flatMap((path) =>
    path.startsWith(`${folder}/`) ? [path.slice(folder.length + 1)] : []
  );
  const whole = () => watchOne(folder, true, (name) => onChange(name), onError);
  if (left.length === 0) return whole();
  return watchAround(folder, left, onChange, onError) ?? whole();
}

/** One watcher of `path`; `undefined` when the runtime cannot watch it. */
function watchOne(
  path: string,
  recursive: boolean,
  onChange: (name: string | undefined) => void,
  onError: (error: unknown) => void,
): (() => void) | undefined {
  try {
    const watcher = watch(path, { recursive, persistent: false }, (_event, name) => {
      onChange(name == null ? undefined : String(name));
    });
    watcher.on("error", onError);
    return () => watcher.close();
  } catch {
    return undefined;
  }
}

/**
 * The watchers that cover `folder` but its `left` folders (relative):
 * `undefined` when one of them cannot be watched.
 */
function watchAround(
  folder: string,
  left: readonly string[],
  onChange: (path: string | undefined) => void,
  onError: (error: unknown) => void,
): (() => void) | undefined {
  /** The watchers by the folder they watch (relative; "" is `folder`). */
  const watchers = new Map<string, () => void>();
  let closed = false;
  /** A folder that is there and cannot be watched. */
  let failed = false;
  const under = (rel: string, name: string) => rel === "" ? name : `${rel}/${name}`;
  const isLeft = (rel: string) => left.includes(rel);
  const holdsLeft = (rel: string) => left.some((path) => rel === "" || path.startsWith(`${rel}/`));
  const add = (rel: string, abs: string, stop: (() => void) | undefined) => {
    if (!stop) {
      // Gone since it was seen: its folder's watcher says so. Still there: it cannot be watched.
      if (isFolderPath(abs)) failed = true;
      return false;
    }
    watchers.set(rel, stop);
    return true;
  };
  /** Watches `rel` and what is under it, but the left folders. */
  const open = (rel: string): boolean => {
    if (closed || failed || isLeft(rel) || watchers.has(rel)) return true;
    const abs = rel === "" ? folder : `${folder}/${rel}`;
    if (!holdsLeft(rel)) {
      return add(
        rel,
        abs,
        watchOne(abs, true, (name) => onChange(name && under(rel, name)), onError),
      );
    }
    const one = watchOne(abs, false, (name) => {
      onChange(name && under(rel, name));
      // Its own entries only: Deno's watcher of one level also hears the levels below.
      if (name && !name.includes("/")) follow(under(rel, name));
    }, onError);
    if (!add(rel, abs, one)) return false;
    // The folders in it, listed once the watcher is in place: one made in between is seen by both.
    for (const entry of folderEntries(abs)) {
      if (isFolder(entry, `${abs}/${entry.name}`)) open(under(rel, entry.name));
    }
    return true;
  };
  /** A name in a folder watched one level deep changed: a folder made there is watched, one gone is not. */
  const follow = (rel: string) => {
    if (closed || isLeft(rel)) return;
    const folderNow = isFolderPath(`${folder}/${rel}`);
    if (folderNow && !watchers.has(rel)) {
      open(rel);
      if (failed) {
        failed = false;
        onError(new Error(`${folder}/${rel} cannot be watched`));
      }
    } else if (!folderNow) {
      for (const [path, stop] of watchers) {
        if (path === rel || path.startsWith(`${rel}/`)) {
          watchers.delete(path);
          stop();
        }
      }
    }
  };
  const stopAll = () => {
    closed = true;
    for (const stop of watchers.values()) stop();
    watchers.clear();
  };
  if (!open("") || failed) {
    stopAll();
    return undefined;
  }
  return stopAll;
}

/** A folder's entries; none when it cannot be read (its watcher says when that changes). */
function folderEntries(path: string): Dirent[] {
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Whether a path is a folder now (following links). */
function isFolderPath(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Whether an entry is a folder, or a link to one (a recursive watcher follows links). */
function isFolder(entry: Dirent, path: string): boolean {
  if (entry.isDirectory()) return true;
  return entry.isSymbolicLink() && isFolderPath(path);
}
