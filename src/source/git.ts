// Commit dates of content files (SPEC 4 "Git dates"): from one `git log`
// over the content root, never one process per file.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import process from "node:process";
import { dirname } from "../util/path.ts";

/** A file's commit dates, epoch ms. */
export interface CommitDates {
  /** The file's first commit; absent in a shallow clone (its history may not reach it). */
  readonly first?: number;
  /** The file's last commit; absent when the working copy changed since. */
  readonly last?: number;
}

/** The commit dates of a content tree. */
export interface GitDates {
  /** By path relative to the content root. */
  readonly files: ReadonlyMap<string, CommitDates>;
  /** Whether the clone is shallow (then no file has a first-commit date). */
  readonly shallow: boolean;
  /**
   * A digest of what git answered: the same digest, the same dates, so a
   * caller tells that nothing changed without comparing every file's.
   */
  readonly digest: string;
}

/**
 * Whether `root` may be in a git work tree: a `.git` in it or a folder
 * above it, or a `GIT_DIR` set. A few stats, where starting `git` to learn
 * that the content is not in a repository cost tens of milliseconds of a
 * cold start.
 *
 * @example
 * ```ts
 * import { inWorkTree } from "./git.ts";
 * if (await inWorkTree("/site/content")) console.log("git may know its dates");
 * ```
 */
export async function inWorkTree(root: string): Promise<boolean> {
  if (process.env.GIT_DIR) return true;
  for (let dir = root;; dir = dirname(dir)) {
    try {
      await stat(`${dir === "/" ? "" : dir}/.git`);
      return true;
    } catch {
      if (dir === "/" || dir === "." || dirname(dir) === dir) return false;
    }
  }
}

/** Paths asked for by name at most; more, and the whole tree is asked for. */
export const MAX_NAMED = 200;

/**
 * Runs `git` in `root` and resolves with what it printed, or rejects when it
 * fails (no `git`, not a repository, a bad revision).
 *
 * @example
 * ```ts
 * import { runGit } from "./git.ts";
 * const head = (await runGit("/site/content", ["rev-parse", "HEAD"])).trim();
 * ```
 */
export function runGit(root: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      "git",
      // --no-optional-locks: a `git status` here must never take the index
      // lock from the user's own `git add` or `git commit` in the same tree.
      // --literal-pathspecs: a file named `[a].md` or `:x.md` is that file,
      // not a pattern.
      [
        "--no-optional-locks",
        "--literal-pathspecs",
        "-C",
        root,
        "-c",
        "core.quotePath=false",
        ...args,
      ],
      { maxBuffer: 256 * 1024 * 1024, encoding: "utf8" },
      (error, stdout) => error ? reject(error) : resolve(stdout),
    )
  );
}

/**
 * The commit dates of the files under `root` (or of `paths`, relative to
 * it, when a reload names a few), or `undefined` when `root` is not in a
 * git work tree or no `git` can be run. Three processes whatever the number
 * of files: where the root sits in the work tree and whether the clone is
 * shallow, one `git log` of every commit's files, one `git status` of what
 * changed since.
 *
 * @example
 * ```ts
 * import { readGitDates } from "./git.ts";
 * const dates = await readGitDates("/site/content");
 * dates?.files.get("docs/intro.md"); // { first: 1700000000000, last: 1760000000000 }
 * ```
 */
export async function readGitDates(
  root: string,
  paths?: readonly string[],
): Promise<GitDates | undefined> {
  if (!(await inWorkTree(root))) return undefined;
  const named = paths && paths.length <= MAX_NAMED ? paths : undefined;
  const scope = named ? ["--", ...named] : ["--", "."];
  let head: string, log: string, status: string;
  try {
    [head, log, status] = await Promise.all([
      runGit(root, ["rev-parse", "--show-prefix", "--is-shallow-repository"]),
      runGit(root, [
        "log",
        "--format=@%ct",
        "--name-only",
        "-z",
        "--no-renames",
        "--relative",
        ...scope,
      ]),
      runGit(root, ["status", "--porcelain=v1", "-z", "--untracked-files=no", ...scope]),
    ]);
  } catch {
    return undefined; // not a work tree, no git, or no commit yet
  }
  const [prefix = "", shallowLine = "false"] = head.split("\n");
  const shallow = shallowLine.trim() === "true";
  const files = new Map<string, { first?: number; last?: number }>();
  // Newest commit first: a file's first entry is its last commit, its last entry its first.
  let time = 0;
  for (let token of log.split("\0")) {
    if (token.startsWith("\n")) token = token.slice(1);
    if (token === "") continue;
    if (token.startsWith("@")) {
      time = Number(token.slice(1)) * 1000;
      continue;
    }
    const dates = files.get(token);
    if (dates) dates.first = time;
    else files.set(token, { first: time, last: time });
  }
  // Files changed since their last commit: that commit is not their last update.
  const entries = status.split("\0");
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (entry.length < 4) continue;
    const path = entry.slice(3);
    if (entry[0] === "R" || entry[0] === "C") i++; // a rename or copy names its source next
    const relative = path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
    if (relative !== undefined) delete files.get(relative)?.last;
  }
  if (shallow) { for (const dates of files.values()) delete dates.first; }
  const digest = createHash("sha1").update(head).update("\0").update(log).update("\0")
    .update(status).digest("hex");
  return { files, shallow, digest };
}
