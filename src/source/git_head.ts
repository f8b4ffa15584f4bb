// Commits as content changes (SPEC 4 "Git dates", SPEC 10): a commit, an
// amend, a rebase, a reset or a checkout changes the commit dates of files
// whose bytes may not change at all, so no file watcher sees it. The
// repository's HEAD and the ref it points at are watched instead, and git is
// asked which files the new commits touched.
import { readFile, stat } from "node:fs/promises";
import { resolvePath } from "../util/path.ts";
import { inWorkTree, MAX_NAMED, runGit } from "./git.ts";

/**
 * How often the repository's HEAD, its branch's ref and the packed refs are
 * stat'ed, in ms: a commit shows well within the 2 seconds of SPEC 10.
 */
export const GIT_POLL_MS = 500;

/** How {@link watchGitHead} watches. */
export interface GitHeadOptions {
  /** How often the ref files are stat'ed, in ms (default {@link GIT_POLL_MS}). */
  readonly interval?: number;
  /**
   * Told once whether anything is watched (`false`: no work tree, or no
   * `git`), after the commit checked out now was read: a commit made from
   * then on is reported.
   */
  readonly onReady?: (watching: boolean) => void;
}

/** Where a work tree's git files are. */
interface GitDirs {
  /** The work tree's own git folder (its `HEAD`): `.git`, or `.git/worktrees/x` of a linked work tree. */
  readonly gitDir: string;
  /** The folder of the refs every work tree shares (`refs/heads/`, `packed-refs`). */
  readonly commonDir: string;
}

/**
 * Calls `onCommits` when the commit checked out in the git work tree that
 * holds `root` changes, with the files (relative to `root`) that the
 * commits it gained or lost touched, or with `undefined` when that cannot
 * be told (the old commit is gone, there was none, or too many files): then
 * every file's dates may have changed. A commit that touches no file under
 * `root` calls nothing. Returns the function that stops it; where `root` is
 * not in a work tree or no `git` runs, nothing is watched.
 *
 * The files are stat'ed (`HEAD`, the ref it names, `packed-refs`,
 * `reftable/tables.list`) every `interval` ms rather than watched: git
 * replaces a ref by renaming a new file over it, which a watch on the file
 * loses, and the git folder is usually outside the content root the content
 * watcher covers. Four stats work alike on every runtime and file system.
 * Git runs only when one of them changed: once to read HEAD, once to list
 * what the new commits touched (never once per file).
 *
 * @example
 * ```ts
 * import { watchGitHead } from "./git_head.ts";
 * const stop = watchGitHead("/site/content", (paths) => console.log("dates changed", paths), {
 *   onReady: (watching) => console.log(watching ? "watching HEAD" : "not in a git work tree"),
 * });
 * stop();
 * ```
 */
export function watchGitHead(
  root: string,
  onCommits: (paths: readonly string[] | undefined) => void,
  options: GitHeadOptions = {},
): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  (async () => {
    const dirs = await gitDirs(root);
    if (!dirs || stopped) return options.onReady?.(false);
    // The stamp before the commit: a commit made between the two shows at the next tick.
    let stamp = await refStamp(dirs);
    let seen = await headCommit(root);
    let busy = false;
    const tick = async () => {
      if (busy) return;
      busy = true;
      try {
        const next = await refStamp(dirs);
        if (next === stamp) return;
        stamp = next;
        const commit = await headCommit(root);
        if (commit === seen) return; // a fetch, a branch created, refs packed
        const paths = await touchedBetween(root, seen, commit);
        seen = commit;
        if (!stopped && (paths === undefined || paths.length > 0)) onCommits(paths);
      } finally {
        busy = false;
      }
    };
    if (stopped) return options.onReady?.(false);
    timer = setInterval(tick, options.interval ?? GIT_POLL_MS);
    (timer as { unref?: () => void }).unref?.();
    options.onReady?.(true);
  })().catch(() => options.onReady?.(false)); // nothing above throws: nothing is watched
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/** The git folders of the work tree that holds `root`, or `undefined` (none, or no `git`). */
async function gitDirs(root: string): Promise<GitDirs | undefined> {
  if (!(await inWorkTree(root))) return undefined;
  let gitDir: string;
  try {
    gitDir = (await runGit(root, ["rev-parse", "--absolute-git-dir"])).trim();
  } catch {
    return undefined;
  }
  // A linked work tree (`git worktree add`) names the shared folder in `commondir`.
  let commonDir = gitDir;
  try {
    commonDir = resolvePath(gitDir, (await readFile(`${gitDir}/commondir`, "utf8")).trim());
  } catch {
    // not a linked work tree
  }
  return { gitDir, commonDir };
}

/**
 * What changes when the checked-out commit may have: HEAD's text (a branch
 * or a commit), and the stamps of the ref it names, of the packed refs and
 * of a reftable's list (git ≥ 2.45 may keep refs there).
 */
async function refStamp({ gitDir, commonDir }: GitDirs): Promise<string> {
  const head = await readFile(`${gitDir}/HEAD`, "utf8").catch(() => "");
  const ref = /^ref: (refs\/[^\s]+)/.exec(head)?.[1];
  const stamps = await Promise.all([
    ref ? fileStamp(`${commonDir}/${ref}`) : "",
    fileStamp(`${commonDir}/packed-refs`),
    fileStamp(`${commonDir}/reftable/tables.list`),
  ]);
  return `${head}\n${stamps.join("\n")}`;
}

/** A file's inode, size and modification time: a ref renamed over the old one changes them. */
async function fileStamp(path: string): Promise<string> {
  try {
    const info = await stat(path);
    return `${info.ino}:${info.size}:${info.mtimeMs}`;
  } catch {
    return "-";
  }
}

/** The commit checked out, or `undefined` (none yet, or git failed). */
function headCommit(root: string): Promise<string | undefined> {
  return runGit(root, ["rev-parse", "-q", "--verify", "HEAD^{commit}"]).then(
    (out) => out.trim() || undefined,
    () => undefined,
  );
}

/**
 * The files under `root` (relative to it) that the commits between `from`
 * and `to` touched: those reachable from one and not the other, so an amend
 * or a rebase (whose old commits are no ancestors of the new ones) names
 * what the commits it dropped touched too. `undefined` when either commit
 * is missing (gone after a garbage collection, or none yet) or more files
 * than a named load asks git about: every file's dates may have changed.
 */
async function touchedBetween(
  root: string,
  from: string | undefined,
  to: string | undefined,
): Promise<string[] | undefined> {
  if (from === undefined || to === undefined) return undefined;
  let log: string;
  try {
    log = await runGit(root, [
      "log",
      "--format=",
      "--name-only",
      "-z",
      "--no-renames",
      "--relative",
      `${from}...${to}`,
      "--",
      ".",
    ]);
  } catch {
    return undefined;
  }
  const paths = new Set<string>();
  for (let token of log.split("\0")) {
    if (token.startsWith("\n")) token = token.slice(1);
    if (token !== "") paths.add(token);
  }
  return paths.size > MAX_NAMED ? undefined : [...paths];
}
