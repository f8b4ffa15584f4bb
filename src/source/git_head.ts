// Commits as content changes (SPEC 4 "Git dates", SPEC 10): a commit, an
// amend, a rebase, a reset or a checkout changes the commit dates of files
// whose bytes may not change at all, so no file watcher sees it. The
// repository's HEAD and the ref it points at are watched instead; what the
// new commits touched is the git tracker's to ask (`git.ts`), once, in the
// reload this watcher asks for.
import { inWorkTree, refStamp, runGit } from "./git.ts";
import { unref } from "../util/unref.ts";

/**
 * How often the repository's HEAD, its branch's ref, the packed refs and
 * git's index are stat'ed, in ms: a commit shows well within the 2 seconds of SPEC 10.
 */
export const GIT_POLL_MS = 500;

/** How {@link watchGitHead} watches. */
export interface GitHeadOptions {
  /** How often the ref files are stat'ed, in ms (default {@link GIT_POLL_MS}). */
  readonly interval?: number;
  /**
   * Told once whether anything is watched (`false`: no work tree, or no
   * `git`), after the ref files were first stat'ed: a commit made from then
   * on is reported.
   */
  readonly onReady?: (watching: boolean) => void;
}

/**
 * Calls `onMoved` when the commit checked out in the git work tree that
 * holds `root` may have changed: HEAD, the ref it names, the packed refs or
 * a reftable's list changed. Returns the function that stops it; where
 * `root` is not in a work tree or no `git` runs, nothing is watched.
 *
 * The files are stat'ed every `interval` ms rather than watched: git
 * replaces a ref by renaming a new file over it, which a watch on the file
 * loses, and the git folder is usually outside the content root the content
 * watcher covers. Four stats work alike on every runtime and file system;
 * git runs once, to find the git folder. Whether the commit really changed,
 * and what it touched, is asked once by the reload (`GitTracker.refresh`).
 *
 * @example
 * ```ts
 * import { watchGitHead } from "./git_head.ts";
 * const stop = watchGitHead("/site/content", () => console.log("HEAD may have moved"), {
 *   onReady: (watching) => console.log(watching ? "watching HEAD" : "not in a git work tree"),
 * });
 * stop();
 * ```
 */
export function watchGitHead(
  root: string,
  onMoved: () => void,
  options: GitHeadOptions = {},
): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  (async () => {
    const gitDir = await gitDirOf(root);
    if (gitDir === undefined || stopped) return options.onReady?.(false);
    let stamp = refStamp(gitDir);
    // A few blocking stats: a tick ends before the next can begin.
    const tick = () => {
      const next = refStamp(gitDir);
      if (next === stamp) return;
      stamp = next;
      if (!stopped) onMoved();
    };
    if (stopped) return options.onReady?.(false);
    timer = unref(setInterval(tick, options.interval ?? GIT_POLL_MS));
    options.onReady?.(true);
  })().catch(() => options.onReady?.(false)); // nothing above throws: nothing is watched
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/** The git folder of the work tree that holds `root` (`.git`, or a linked work tree's), or `undefined`. */
async function gitDirOf(root: string): Promise<string | undefined> {
  if (!inWorkTree(root)) return undefined;
  try {
    return (await runGit(root, ["rev-parse", "--absolute-git-dir"])).trim() || undefined;
  } catch {
    return undefined;
  }
}
