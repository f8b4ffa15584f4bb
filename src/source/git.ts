// Commit dates of content files (SPEC 4 "Git dates", SPEC 17): read from
// git's history once, then kept up with the commits since: never one
// process per file, and never the whole history again for a commit that
// descends from the one read.
import { spawnSync } from "node:child_process";
import { MAX_OUTPUT, runProcess } from "../adapters/run_process.ts";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { dirname } from "../util/path.ts";
import {
  defaultParting,
  type HistoryParting,
  historyRanges,
  packedObjects,
} from "./history_parts.ts";
import { sha256HexSync } from "../util/sha256.ts";

/** A file's commit dates, epoch ms. */
export interface CommitDates {
  /** The file's first commit; absent in a shallow clone (its history may not reach it). */
  readonly first?: number;
  /** The file's last commit; absent when the working copy changed since. */
  readonly last?: number;
}

/**
 * Whether `root` may be in a git work tree: a `.git` in it or a folder
 * above it, or a `GIT_DIR` set. A few stats, where starting `git` to learn
 * that the content is not in a repository cost tens of milliseconds of a
 * cold start. Blocking stats: a stat never waits, and a start's check
 * starts git right after, before its listing blocks.
 *
 * @example
 * ```ts
 * import { inWorkTree } from "./git.ts";
 * if (inWorkTree("/site/content")) console.log("git may know its dates");
 * ```
 */
export function inWorkTree(root: string): boolean {
  return !!process.env.GIT_DIR || nearestDotGit(root) !== undefined;
}

/** The nearest `.git` in `root` or a folder above it: a folder, or a linked work tree's file. */
function nearestDotGit(root: string): { path: string; folder: boolean } | undefined {
  for (let dir = root;; dir = dirname(dir)) {
    const path = `${dir === "/" ? "" : dir}/.git`;
    try {
      return { path, folder: statSync(path).isDirectory() };
    } catch {
      if (dir === "/" || dir === "." || dirname(dir) === dir) return undefined;
    }
  }
}

/** Paths asked for by name at most; more, and the whole tree is asked for. */
export const MAX_NAMED = 200;

/** What a git process printed and how it ended ({@link execGit}). */
export interface GitRun {
  readonly stdout: string;
  /** The exit code (0: it succeeded), or `-1` when git could not be run. */
  readonly code: number;
  /** What git said on its error output. */
  readonly stderr: string;
}

/**
 * The arguments every git process of this project is run with, in `root`:
 * `--no-optional-locks` (a `git status` here must never take the index
 * lock from the user's own `git add` or `git commit` in the same tree) and
 * `--literal-pathspecs` (a file named `[a].md` or `:x.md` is that file, not
 * a pattern), and paths printed as they are.
 *
 * @example
 * ```ts
 * import { gitArgs } from "./git.ts";
 * gitArgs("/site", ["status"]); // ["--no-optional-locks", …, "-C", "/site", …, "status"]
 * ```
 */
export function gitArgs(root: string, args: readonly string[]): string[] {
  return [
    "--no-optional-locks",
    "--literal-pathspecs",
    "-C",
    root,
    "-c",
    "core.quotePath=false",
    ...args,
  ];
}

/**
 * The environment every git process of this project runs in: the server's,
 * with lazy fetching off (`GIT_NO_LAZY_FETCH`) and no prompt for
 * credentials. A partial clone (`--filter=tree:0`) is missing the trees of
 * its history, and git would fetch each one from the remote on demand as
 * `git log` reads it (a round trip per commit, and the transport program
 * the repository's configuration names); with it off, the command fails at
 * once and the files are dated by their modification times. Git honours it
 * from 2.45.1, and in the security releases back to 2.39.4.
 *
 * @example
 * ```ts
 * import { gitEnv } from "./git.ts";
 * gitEnv().GIT_NO_LAZY_FETCH; // "1"
 * ```
 */
export function gitEnv(): Record<string, string | undefined> {
  return { ...process.env, GIT_NO_LAZY_FETCH: "1", GIT_TERMINAL_PROMPT: "0" };
}

/**
 * Runs git in `root`: what it printed on both outputs and how it ended,
 * never a rejection (a git that cannot be run, or ran past `timeout` ms,
 * ends with `-1`).
 *
 * @example
 * ```ts
 * import { execGit } from "./git.ts";
 * const run = await execGit("/site", ["status", "--porcelain"], 30_000);
 * if (run.code === 0 && run.stderr === "") console.log(run.stdout);
 * ```
 */
export function execGit(root: string, args: readonly string[], timeout = 0): Promise<GitRun> {
  return runProcess("git", gitArgs(root, args), { env: gitEnv(), timeout });
}

/** How every git process of {@link execGitSync} runs: its environment, a limit. */
function execOptions(timeout: number) {
  return { maxBuffer: MAX_OUTPUT, encoding: "utf8" as const, env: gitEnv(), timeout };
}

/**
 * Runs git in `root` as {@link execGit} does, holding the thread until it
 * ends: for a stopping server, and a start's first listing of commits,
 * where nothing waits on the event loop meanwhile.
 *
 * @example
 * ```ts
 * import { execGitSync } from "./git.ts";
 * const run = execGitSync("/site", ["rev-parse", "HEAD"], 30_000);
 * if (run.code === 0) console.log(run.stdout.trim());
 * ```
 */
export function execGitSync(root: string, args: readonly string[], timeout = 0): GitRun {
  const run = spawnSync("git", gitArgs(root, args), execOptions(timeout));
  return {
    stdout: run.stdout ?? "",
    code: run.error ? -1 : run.status ?? -1,
    stderr: run.stderr ?? "",
  };
}

/**
 * Runs git in `root` as {@link execGit} does, with what it prints on its
 * standard output written to a file (`--output`, which `git log` and
 * `git diff` take) and read when git has exited. For outputs of megabytes
 * read while the main thread is busy: through a pipe, git stops each time
 * the pipe's 64 KB are full until the event loop drains it, and a blocking
 * load under Deno lets the loop poll for I/O only every few dozen turns, so
 * a history of 10,000 commits was read in 1.1–1.4 s where git needs 0.3 s of
 * CPU, and at times after the file reads had ended (SPEC 17: "beside the
 * file reads, never after them"). Where no temporary folder can be made,
 * the output comes through the pipe.
 *
 * @example
 * ```ts
 * import { execGitToFile } from "./git.ts";
 * const run = await execGitToFile("/site", ["log", "--format=%H %ct", "HEAD"]);
 * if (run.code === 0) console.log(run.stdout.split("\n").length);
 * ```
 */
export async function execGitToFile(root: string, args: readonly string[]): Promise<GitRun> {
  let folder: string;
  try {
    folder = mkdtempSync(join(tmpdir(), "content-feed-git-"));
  } catch {
    return execGit(root, args);
  }
  if (!removesAtExit) {
    removesAtExit = true;
    process.on("exit", () => {
      for (const open of outputFolders) removeFolder(open);
    });
  }
  outputFolders.add(folder);
  try {
    const file = join(folder, "out");
    // After the command's name (`-c` settings before it take a value each).
    const command = args.findIndex((arg, i) => !arg.startsWith("-") && args[i - 1] !== "-c");
    const run = await execGit(root, [
      ...args.slice(0, command + 1),
      `--output=${file}`,
      ...args.slice(command + 1),
    ]);
    if (run.code !== 0) return run;
    return { ...run, stdout: readFileSync(file, "utf8") };
  } catch (error) {
    return { stdout: "", code: -1, stderr: (error as Error).message };
  } finally {
    outputFolders.delete(folder);
    removeFolder(folder);
  }
}

/**
 * The folders {@link execGitToFile} made and has not removed yet: removed
 * when the process exits (a server stopped during its first start exits
 * while git may still be writing; git then finishes into a file no folder
 * holds).
 */
const outputFolders = new Set<string>();
let removesAtExit = false;

/** Removes a temporary folder; one that cannot be removed is left (it never fails a read). */
function removeFolder(folder: string): void {
  try {
    rmSync(folder, { recursive: true, force: true });
  } catch {
    // left in the temporary folder, as an editor's swap file would be
  }
}

/**
 * `git log` with settings that hold whatever the user's configuration
 * says: no signature check printed before each commit's record
 * (`log.showSignature`), the root commit's files listed (`log.showRoot`),
 * and paths from the top of the work tree (`diff.relative`), which the
 * parser takes the content root's prefix from.
 */
const LOG_SETTINGS = [
  "-c",
  "log.showSignature=false",
  "-c",
  "log.showRoot=true",
  "-c",
  "diff.relative=false",
  "log",
];
/**
 * The log of commits and the files each touched that the history is read
 * from (`parseLog`), given a revision or a range.
 */
const HISTORY_LOG = [...LOG_SETTINGS, "--format=%x01%m%H %ct", "--name-only", "-z", "--no-renames"];

/**
 * The git folder of the work tree `root` is in, where it is a folder named
 * `.git` (not a linked work tree's or a submodule's `.git` file, and no
 * `GIT_DIR`); `undefined` otherwise.
 */
function plainGitFolder(root: string): string | undefined {
  if (process.env.GIT_DIR || process.env.GIT_COMMON_DIR) return undefined;
  const found = nearestDotGit(root);
  return found?.folder ? found.path : undefined;
}

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
export async function runGit(root: string, args: readonly string[]): Promise<string> {
  const run = await execGit(root, args);
  if (run.code !== 0) throw new Error(`git ${args[0]} failed (${run.code})`);
  return run.stdout;
}

/** A file's dates from the history alone (its commits), epoch ms. */
export interface HistoryDates {
  readonly first: number;
  readonly last: number;
}

/**
 * What git's history says of a content tree as of one commit: what a
 * tracker keeps between processes (the state folder), so a restart asks
 * git only for the commits since.
 */
export interface GitHistory {
  /** The commit the history was read at. */
  readonly head: string;
  /** Where the content root sits in the work tree (`docs/`, or `""`). */
  readonly prefix: string;
  /**
   * Where the clone's history ends: `""` for a whole history, else a digest
   * of its boundary commits (`.git/shallow`), which a deeper fetch changes
   * (then the history is read again, whole) while HEAD stays.
   */
  readonly shallow: string;
  /**
   * What replaces commits (`git replace`, grafts): `""` for nothing, else a
   * digest of the replacements, which change the history while HEAD stays
   * (then it is read again, whole).
   */
  readonly replaced: string;
  /**
   * Each file's earliest and latest commit among those reachable from
   * `head`, by path relative to the content root.
   */
  readonly files: ReadonlyMap<string, HistoryDates>;
}

/** What one refresh of a {@link GitTracker} found. */
export interface GitRefresh {
  /**
   * Files (relative to the content root) whose dates may have changed:
   * touched by new commits, or changed in the work tree since their last
   * commit, or back as they were; `"all"` when the whole history was read.
   */
  readonly changed: ReadonlySet<string> | "all";
  /**
   * A warning for the log, when one is due: a history read again in full,
   * or one git could not give (once per HEAD in a process: a partial clone
   * without its trees).
   */
  readonly note?: string;
}

/** Keeps a content tree's commit dates current (SPEC 4, 17). */
export interface GitTracker {
  /** A file's dates now (relative to the content root); `undefined` where git knows none. */
  dates(path: string): CommitDates | undefined;
  /**
   * Asks git what changed since the last refresh: with `named` (paths
   * relative to the root that a watcher saw change), only whether those
   * changed in the work tree, unless HEAD moved; without, the whole tree.
   */
  refresh(named?: readonly string[]): Promise<GitRefresh>;
  /** Changes whenever some file's dates did. */
  readonly version: number;
  /** Whether the clone is shallow (no first-commit dates). */
  readonly shallow: boolean;
  /** The history as of the last refresh, to keep for the next process; `undefined`: none. */
  history(): GitHistory | undefined;
  /** How many git processes the tracker started (a running total). */
  readonly processes: number;
  /**
   * What the dates given out were read from, as {@link gitStateKey} spells
   * it: HEAD, where the root sits, whether the clone is shallow, and the
   * files changed in the work tree. `undefined` before a refresh, or when
   * git failed.
   */
  stateKey(): string | undefined;
}

/** Runs one git command in the repository (a tracker counts its processes). */
type GitRunner = (args: readonly string[]) => Promise<GitRun>;

/**
 * Where the dates are read from: HEAD, where the root sits, the shallow
 * clone's boundary, the commits' replacements.
 */
type HeadAt = {
  readonly commit: string;
  readonly prefix: string;
  readonly shallow: string;
  readonly replaced: string;
};

/**
 * Why git said it failed, in one line: its first `fatal:` line, else its
 * last (git's advice follows the reason).
 */
function gitSaid(stderr: string): string | undefined {
  const lines = stderr.split("\n").map((line) => line.trim()).filter((line) => line !== "");
  return lines.find((line) => line.startsWith("fatal:")) ?? lines.at(-1);
}

/**
 * HEAD, where the root sits and whether the clone is shallow; no `head`
 * without a commit, and then `refused`: what git said when it would not read
 * the repository at all (a broken `.git`, or "dubious ownership": a folder
 * owned by another user, as a container's mounted volume often is).
 */
async function headOf(git: GitRunner): Promise<{
  dir: string;
  head?: HeadAt;
  refused?: string;
}> {
  const run = await git([
    "rev-parse",
    "--absolute-git-dir",
    "--show-prefix",
    "--is-shallow-repository",
    "--verify",
    "-q",
    "HEAD^{commit}",
  ]);
  const [dir = "", prefix = "", shallow = "", commit = ""] = run.stdout.split("\n");
  if (run.code !== 0 || !/^[0-9a-f]{40,64}$/.test(commit)) {
    // A repository without a commit fails quietly (`-q`); a refusal says why.
    const said = gitSaid(run.stderr);
    return { dir, ...(said ? { refused: said } : {}) };
  }
  return {
    dir,
    head: {
      commit,
      prefix,
      shallow: shallow.trim() === "true" ? boundaryOf(dir) : "",
      replaced: replacementsOf(dir),
    },
  };
}

/**
 * A digest of what replaces commits in the repository (`git replace`'s
 * refs, loose or packed, and the old grafts file), which `git log` follows:
 * `""` where nothing does. Read from git's folder, as its refs are stamped
 * (`refStamp`); a repository whose refs are in a reftable keeps them where
 * this does not look.
 *
 * @example
 * ```ts
 * import { replacementsOf } from "./git.ts";
 * replacementsOf("/site/.git"); // "" (nothing replaced)
 * ```
 */
export function replacementsOf(gitDir: string): string {
  const commonDir = commonDirOf(gitDir);
  const found: string[] = [];
  try {
    for (const name of readdirSync(`${commonDir}/refs/replace`).sort()) {
      try {
        found.push(`${name} ${readFileSync(`${commonDir}/refs/replace/${name}`, "utf8").trim()}`);
      } catch {
        found.push(`${name} ?`); // a folder, or gone since: no digest of nothing
      }
    }
  } catch {
    // no refs/replace: nothing replaced by a loose ref
  }
  try {
    const packed = readFileSync(`${commonDir}/packed-refs`, "utf8");
    if (packed.includes(" refs/replace/")) {
      for (const line of packed.split("\n")) if (line.includes(" refs/replace/")) found.push(line);
    }
  } catch {
    // no packed refs
  }
  try {
    found.push(`grafts ${readFileSync(`${commonDir}/info/grafts`, "utf8")}`);
  } catch {
    // no grafts
  }
  return found.length === 0 ? "" : sha256HexSync(found.join("\n"));
}

/** A history read at `at`, its files to come. */
function historyAt(at: HeadAt): Omit<GitHistory, "files"> {
  return { head: at.commit, prefix: at.prefix, shallow: at.shallow, replaced: at.replaced };
}

/**
 * Whether a history read at one commit can be extended to `at`: the same
 * root's place, shallow boundary and replacements (its commits then say the
 * rest).
 */
function sameGraph(history: GitHistory, at: HeadAt): boolean {
  return history.prefix === at.prefix && history.shallow === at.shallow &&
    history.replaced === at.replaced;
}

/** Why a kept history is no base for the history at `at`, in words. */
function whyReadAgain(old: GitHistory, at: HeadAt): string {
  if (old.shallow !== at.shallow) return "the shallow clone's boundary moved (a deeper fetch)";
  if (old.replaced !== at.replaced) return "what replaces commits changed (git replace)";
  if (old.prefix !== at.prefix) return "the content root moved in the work tree";
  return `the commit the state folder recorded (${
    old.head.slice(0, 12)
  }) is not an ancestor of HEAD (${
    at.commit.slice(0, 12)
  }: a rebase, an amend, a reset or another branch)`;
}

/** Where a history was read at. */
function headOfHistory(history: GitHistory): HeadAt {
  const { head: commit, prefix, shallow, replaced } = history;
  return { commit, prefix, shallow, replaced };
}

/** A digest of a shallow clone's boundary commits (`shallow` in its git folder). */
function boundaryOf(gitDir: string): string {
  try {
    return sha256HexSync(readFileSync(`${commonDirOf(gitDir)}/shallow`, "utf8"));
  } catch {
    return "shallow"; // unknown: no digest equals it, so a kept history is read again
  }
}

/** The work tree's changed files, by path relative to the root (the named ones, or all). */
async function workTreeChanges(
  git: GitRunner,
  prefix: string,
  named?: readonly string[],
): Promise<{ found: Set<string>; whole: boolean } | undefined> {
  const scope = named && named.length <= MAX_NAMED ? ["--", ...named] : ["--", "."];
  // No rename detection: it reads blobs, which a partial clone may not have (and git may not fetch).
  const run = await git([
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=no",
    "--no-renames",
    ...scope,
  ]);
  if (run.code !== 0) return undefined;
  const found: string[] = [];
  // No renames or copies (`--no-renames`): one path an entry.
  for (const entry of run.stdout.split("\0")) if (entry.length >= 4) found.push(entry.slice(3));
  return { found: under(found, prefix), whole: scope[1] === "." };
}

/** The paths under `prefix` (a folder of the repository, or ""), relative to it. */
function under(paths: Iterable<string>, prefix: string): Set<string> {
  const out = new Set<string>();
  for (const path of paths) if (path.startsWith(prefix)) out.add(path.slice(prefix.length));
  return out;
}

/**
 * The state key of a repository at `head` with the work tree's changed
 * files `dirty` (as {@link GitTracker.stateKey} spells it).
 *
 * @example
 * ```ts
 * import { stateKeyOf } from "./git.ts";
 * stateKeyOf({ commit: "3f2a", prefix: "docs/", shallow: "", replaced: "" }, new Set(["a.md"]));
 * ```
 */
export function stateKeyOf(
  head: HeadAt | undefined,
  dirty: ReadonlySet<string>,
): string {
  if (!head) return "no commit";
  return [head.commit, head.prefix, head.shallow, head.replaced, ...[...dirty].sort()].join("\0");
}

/**
 * What the commit dates of the files under `root` are read from now: HEAD,
 * where the root sits, whether the clone is shallow, and the files changed
 * in the work tree (two git processes; none outside a repository). Equal
 * to a tracker's {@link GitTracker.stateKey} when git would give every
 * file the dates the tracker gave; `undefined` when git failed.
 *
 * @example
 * ```ts
 * import { gitStateKey } from "./git.ts";
 * const key = await gitStateKey("/site/content"); // "3f2a…\0docs/\0false"
 * ```
 */
export function gitStateKey(root: string): Promise<string | undefined> {
  if (!inWorkTree(root)) return Promise.resolve("no repository");
  const git: GitRunner = (args) => execGit(root, args);
  // Both started at once, before the caller's next blocking step (a listing): the work
  // tree's changes are asked for whole, then kept to those under the root's prefix.
  const all = workTreeChanges(git, "");
  return headOf(git).then(async ({ head }) => {
    const changed = await all;
    if (!head) return stateKeyOf(undefined, new Set());
    if (!changed) return undefined;
    return stateKeyOf(head, under(changed.found, head.prefix));
  });
}

/**
 * A tracker of the commit dates of the files under `root`, starting from
 * the history a previous process kept (`kept`) when there is one. A first
 * refresh reads the history once (one `git log` of every commit, run beside
 * the file reads; in a large repository, a log per part of the commits,
 * `parting`); later ones, and a restart whose kept history is an
 * ancestor of HEAD, read only the commits since (`git log kept..HEAD`),
 * and `git status` for what changed in the work tree. A file's dates are
 * its earliest and latest commit among those reachable from HEAD (without
 * its last when the work tree changed it since, without its first in a
 * shallow clone). Where `root` is not in a work tree, or no `git` runs, no
 * file has dates.
 *
 * @example
 * ```ts
 * import { createGitTracker } from "./git.ts";
 * const tracker = createGitTracker("/site/content");
 * await tracker.refresh();
 * tracker.dates("docs/intro.md"); // { first: 1700000000000, last: 1760000000000 }
 * ```
 */
export function createGitTracker(
  root: string,
  kept?: GitHistory,
  parting: HistoryParting = defaultParting(),
): GitTracker {
  let history: GitHistory | undefined = kept;
  /** Files changed in the work tree since their last commit (relative to the root). */
  let dirty = new Set<string>();
  /** Each file's dates as given out: the same object while they stay the same. */
  let given = new Map<string, CommitDates>();
  let version = 0;
  let processes = 0;
  let inTree: boolean | undefined;
  /** HEAD's stamp at the last refresh: while it is the same, so is HEAD. */
  let headStamp: string | undefined;
  let gitDir: string | undefined;
  const git = (args: readonly string[]) => {
    processes++;
    return execGit(root, args);
  };
  /**
   * Every commit reachable from `rev`, with the files each touched: through
   * a file. In a repository whose packs hold `parting.minObjects` or more,
   * the commits are listed first, and where they make two parts or more
   * (`history_parts.ts`) a process per part runs at once; their records are
   * joined, the tip's first. The listing blocks on a process's first
   * refresh: a first start's load blocks too, and under Deno its turns do
   * not poll for I/O, so a listing that ended was seen seconds late (at
   * 100,000 commits, a blocking listing takes 0.4 s; a few thousand, tens
   * of milliseconds).
   */
  const wholeLog = async (rev: string, dir = plainGitFolder(root) ?? gitDir): Promise<GitRun> => {
    processes++;
    if (dir === undefined || packedObjects(commonDirOf(dir)) < parting.minObjects) {
      return await execGitToFile(root, [...HISTORY_LOG, rev]);
    }
    const listing = [...LOG_SETTINGS, "--format=%H", rev];
    const listed = refreshes > 1 ? await execGitToFile(root, listing) : execGitSync(root, listing);
    if (listed.code !== 0) return listed;
    const commits = listed.stdout.split("\n");
    if (commits.at(-1) === "") commits.pop();
    if (commits.length === 0) return { ...listed, code: 1, stderr: "git listed no commit" };
    const ranges = historyRanges(commits, parting.commitsPerPart, parting.maxParts);
    processes += ranges.length;
    const runs = await Promise.all(
      ranges.map((range) => execGitToFile(root, [...HISTORY_LOG, ...range])),
    );
    const failed = runs.find((run) => run.code !== 0);
    if (failed) return failed;
    // Joined by a NUL, which the parser takes as the end of a record's last name.
    return {
      code: 0,
      stdout: runs.map((run) => run.stdout).join("\0"),
      stderr: runs.map((run) => run.stderr).join(""),
    };
  };
  let refreshed = false;
  /** How many refreshes have begun: the first is a start's. */
  let refreshes = 0;
  /** The whole log of HEAD, begun now, with the digests of what it is read under. */
  const earlyLog = () => {
    const dir = plainGitFolder(root);
    if (dir === undefined) return undefined;
    // The boundary as `rev-parse` gives it: "" for a whole clone (no `shallow` file).
    const boundary = boundaryOf(dir);
    return {
      shallow: boundary === "shallow" ? "" : boundary,
      replaced: replacementsOf(dir),
      run: wholeLog("HEAD", dir),
    };
  };

  const datesOf = (path: string): CommitDates | undefined => {
    const found = history?.files.get(path);
    if (!found) return undefined;
    // Most files: the history's own object, not a copy of it per file.
    if (!history!.shallow && !dirty.has(path)) return found;
    const first = history!.shallow ? undefined : found.first;
    const last = dirty.has(path) ? undefined : found.last;
    if (first === undefined && last === undefined) return {};
    return first === undefined ? { last } : last === undefined ? { first } : { first, last };
  };
  /** Takes the new dates of `paths`, keeping the object of each whose dates did not change. */
  const update = (paths: Iterable<string>) => {
    let moved = false;
    for (const path of paths) {
      const old = given.get(path);
      const now = datesOf(path);
      if (old === undefined ? now === undefined : now !== undefined && same(old, now)) continue;
      if (now) given.set(path, now);
      else given.delete(path);
      moved = true;
    }
    if (moved) version++;
  };
  const rebuild = () => {
    const next = new Map<string, CommitDates>();
    for (const path of history?.files.keys() ?? []) {
      const now = datesOf(path)!;
      const old = given.get(path);
      next.set(path, old && same(old, now) ? old : now);
    }
    given = next;
    version++;
  };

  /** Where HEAD and the ref it names are, and what they hold now. */
  const stampNow = (): string | undefined => gitDir === undefined ? undefined : refStamp(gitDir);

  const status = (prefix: string, named?: readonly string[]) => workTreeChanges(git, prefix, named);
  /** What git said the last time it would not read the repository (said once, until it changes). */
  let refusal: string | undefined;
  const head = async () => {
    const found = await headOf(git);
    if (found.dir) gitDir = found.dir;
    const said = found.refused !== undefined && found.refused !== refusal;
    refusal = found.refused;
    return {
      at: found.head,
      note: said
        ? `git: the repository could not be read (${found.refused}), so the files are dated by their modification times`
        : undefined,
    };
  };

  /**
   * The history at `at`: from the kept one and the commits since when it is
   * an ancestor, else read whole. Returns the files whose dates the new
   * commits touched, or `"all"`.
   */
  const readHistory = async (
    at: HeadAt,
    early?: Promise<GitRun>,
  ): Promise<{ changed: ReadonlySet<string> | "all"; note?: string }> => {
    if (history && history.head === at.commit && sameGraph(history, at)) {
      return { changed: new Set() };
    }
    // A history git could not give is no base to extend: read whole.
    const old = history === unread ? undefined : history;
    if (old && sameGraph(old, at)) {
      const since = await git([...HISTORY_LOG, "--boundary", `${old.head}..${at.commit}`]);
      const range = since.code === 0 ? parseLog(since.stdout, at.prefix) : undefined;
      if (range && range.boundary.has(old.head)) {
        // Extended in place, not copied: a copy of 100,000 entries was most of what re-dating
        // a commit cost. Nothing else reads the map as it was (the derivation cache writes the
        // history it is given at once, and compares kept histories by object, not by map).
        const files = old.files as Map<string, HistoryDates>;
        for (const [path, dates] of range.files) {
          const was = files.get(path);
          files.set(
            path,
            was
              ? {
                first: Math.min(was.first, dates.first),
                last: Math.max(was.last, dates.last),
              }
              : dates,
          );
        }
        history = { ...historyAt(at), files };
        return { changed: new Set(range.files.keys()) };
      }
    }
    let whole = early ? await early : undefined;
    // The log begun beside `rev-parse` read HEAD as it was then: taken when that is the commit
    // `rev-parse` found (its first record), read again at that commit otherwise, and when it
    // failed (HEAD may have had no commit yet; a log that fails for good fails twice, with one
    // warning).
    if (whole?.code !== 0 || !whole.stdout.startsWith(at.commit, 2)) {
      whole = await wholeLog(at.commit);
    }
    if (whole.code !== 0) {
      // Remembered for this HEAD, in this process: no file has dates, and neither the log nor
      // its warning runs again until HEAD moves. Not kept for the next process, which tries once.
      history = unread = { ...historyAt(at), files: new Map() };
      // "fatal: could not fetch … from promisor remote": a partial clone.
      const said = gitSaid(whole.stderr);
      return {
        changed: "all",
        note: `git: the history could not be read${
          said ? ` (${said})` : ""
        }, so the files are dated by their modification times`,
      };
    }
    history = { ...historyAt(at), files: parseLog(whole.stdout, at.prefix).files };
    const note = old &&
      `git: ${whyReadAgain(old, at)}, so the commit dates were read again from the whole history`;
    return { changed: "all", note };
  };

  let shallow = false;
  /** The history of a HEAD whose log git could not give (no file dated), while it is HEAD. */
  let unread: GitHistory | undefined;
  /** What the last refresh read the dates from (`GitTracker.stateKey`). */
  let state: string | undefined;
  const tracker: GitTracker = {
    dates: (path) => given.get(path),
    get version() {
      return version;
    },
    get shallow() {
      return shallow;
    },
    get processes() {
      return processes;
    },
    history: () => history === unread ? undefined : history,
    stateKey: () => state,
    async refresh(named) {
      refreshes++;
      inTree ??= inWorkTree(root);
      if (!inTree) inTree = inWorkTree(root); // a repository made since
      if (!inTree) {
        const had = history !== undefined || given.size > 0;
        history = undefined;
        dirty = new Set();
        if (had) rebuild();
        state = "no repository";
        return { changed: had ? "all" : new Set() };
      }
      // Taken once, before HEAD is read, and kept as the stamp of what this refresh reads: a
      // commit or checkout made meanwhile shows as a stamp changed since, at the next refresh.
      // (A second read of the stamp, after deciding on the first, could keep a new stamp with
      // the old HEAD, and a checkout would never be seen.) Unknown on the first refresh, which
      // finds the git folder: the next one reads HEAD.
      const stamp = stampNow();
      // A watcher's paths, while HEAD and git's index stay where they were: only whether those
      // changed in the work tree.
      const still = history !== undefined && headStamp !== undefined && stamp === headStamp;
      if (named && still) {
        // The root's own folder (a watcher's event on it, "") is no file of git's, and no
        // pathspec git takes: its status asked, git failed, and the work tree was not known.
        const paths = named.filter((path) => path !== "");
        if (paths.length === 0) return { changed: new Set() };
        const prefix = history!.prefix;
        const found = await status(prefix, paths);
        if (!found) {
          state = undefined; // what the work tree holds is not known now
          return { changed: new Set() };
        }
        const head = headOfHistory(history!);
        const changed = new Set<string>();
        const scope = found.whole ? [...new Set([...dirty, ...found.found])] : paths;
        for (const path of scope) {
          const was = dirty.has(path);
          const is = found.found.has(path);
          if (was === is) continue;
          if (is) dirty.add(path);
          else dirty.delete(path);
          changed.add(path);
        }
        update(changed);
        state = stateKeyOf(head, dirty);
        return { changed };
      }
      // A first refresh with no kept history reads the whole log: begun beside `rev-parse`, not
      // after it, as the history is what a first start waits on longest (SPEC 17). What would
      // change its graph with HEAD unmoved (a deeper fetch, a replacement) is read before it
      // begins, and the log is kept only where `rev-parse` then finds the same.
      const early = !refreshed && history === undefined ? earlyLog() : undefined;
      refreshed = true;
      // While the stamp stays the same, so do HEAD and the history: a listing asks only what
      // changed in the work tree.
      const current: { at?: HeadAt; note?: string } = still
        ? { at: headOfHistory(history!) }
        : await head();
      const at = current.at;
      if (!at) {
        const had = history !== undefined;
        history = undefined;
        dirty = new Set();
        rebuild();
        headStamp = undefined;
        state = stateKeyOf(undefined, dirty);
        return {
          changed: had ? "all" : new Set(),
          ...(current.note ? { note: current.note } : {}),
        };
      }
      shallow = at.shallow !== "";
      const log = early?.shallow === at.shallow && early.replaced === at.replaced
        ? early.run
        : undefined;
      const [read, found] = await Promise.all([readHistory(at, log), status(at.prefix)]);
      headStamp = stamp;
      const wasDirty = dirty;
      dirty = found?.found ?? new Set();
      // Known only when both answered: a failed status or log reads again next time.
      state = found && history?.head === at.commit ? stateKeyOf(at, dirty) : undefined;
      if (read.changed === "all") {
        rebuild();
        return { changed: "all", note: read.note };
      }
      const changed = new Set(read.changed);
      for (const path of wasDirty) if (!dirty.has(path)) changed.add(path);
      for (const path of dirty) if (!wasDirty.has(path)) changed.add(path);
      if (given.size === 0 && history && history.files.size > 0) {
        rebuild(); // the first refresh from a kept history: every file's dates given out
        return { changed: "all" };
      }
      update(changed);
      return { changed };
    },
  };
  return tracker;
}

/** Whether two files' commit dates are the same. */
function same(a: CommitDates, b: CommitDates): boolean {
  return a.first === b.first && a.last === b.last;
}

/**
 * A `git log --format=%x01%m%H %ct --name-only -z` output: each file's
 * earliest and latest commit among the commits listed (not the boundary
 * ones, marked `-`), by path relative to `prefix`, and the boundary.
 */
function parseLog(
  log: string,
  prefix: string,
): { files: Map<string, { first: number; last: number }>; boundary: Set<string> } {
  const files = new Map<string, { first: number; last: number }>();
  const boundary = new Set<string>();
  let time = 0;
  let counted = false;
  for (let token of log.split("\0")) {
    if (token.startsWith("\n")) token = token.slice(1);
    if (token === "") continue;
    if (token.charCodeAt(0) === 1) {
      // \x01, the mark (`>`, or `-` for a boundary commit), the hash, the commit time.
      const space = token.indexOf(" ");
      counted = token[1] !== "-";
      if (!counted) boundary.add(token.slice(2, space));
      time = Number(token.slice(space + 1)) * 1000;
      continue;
    }
    if (!counted || !token.startsWith(prefix)) continue;
    const path = token.slice(prefix.length);
    const dates = files.get(path);
    if (!dates) files.set(path, { first: time, last: time });
    else {
      if (time < dates.first) dates.first = time;
      if (time > dates.last) dates.last = time;
    }
  }
  return { files, boundary };
}

/**
 * What changes when the checked-out commit, or what git's index holds, may
 * have: HEAD's text (a branch or a commit), and the stamps of the ref it
 * names, of the packed refs, of a reftable's list (git ≥ 2.45 may keep refs
 * there), of the shallow file, of the replacements, and of the index (a
 * change to it alone, `git rm --cached`, changes which files are dirty with
 * no content file written). A few blocking stats and one small read, no
 * process.
 *
 * @param gitDir the work tree's git folder (`.git`, or `.git/worktrees/x` of a linked one)
 *
 * @example
 * ```ts
 * import { refStamp } from "./git.ts";
 * const before = refStamp("/site/.git");
 * // … later: another stamp, another commit may be checked out
 * ```
 */
export function refStamp(gitDir: string): string {
  const commonDir = commonDirOf(gitDir);
  let head = "";
  try {
    head = readFileSync(`${gitDir}/HEAD`, "utf8");
  } catch {
    // no HEAD: the stamps below still say what there is
  }
  const ref = /^ref: (refs\/[^\s]+)/.exec(head)?.[1];
  return [
    head,
    ref ? fileStamp(`${commonDir}/${ref}`) : "",
    fileStamp(`${commonDir}/packed-refs`),
    fileStamp(`${commonDir}/reftable/tables.list`),
    // A linked work tree's own reftable (its HEAD), and a clone made shallow since.
    fileStamp(`${gitDir}/reftable/tables.list`),
    fileStamp(`${gitDir}/shallow`),
    fileStamp(`${commonDir}/shallow`),
    // A commit replaced or no longer (`git replace`, grafts): the history changes, HEAD stays.
    fileStamp(`${commonDir}/refs/replace`),
    fileStamp(`${commonDir}/info/grafts`),
    indexStamp(gitDir),
  ].join("\n");
}

/** A work tree's index file (`index` in its git folder), stamped. */
function indexStamp(gitDir: string): string {
  return fileStamp(`${gitDir}/index`);
}

/**
 * The repository's own git folder of a work tree's git folder: itself, or
 * what a linked work tree's `commondir` names.
 *
 * @example
 * ```ts
 * import { commonDirOf } from "./git.ts";
 * commonDirOf("/site/.git"); // "/site/.git"
 * ```
 */
export function commonDirOf(gitDir: string): string {
  try {
    const common = readFileSync(`${gitDir}/commondir`, "utf8").trim();
    return common.startsWith("/") ? common : `${gitDir}/${common}`;
  } catch {
    return gitDir; // not a linked work tree
  }
}

/**
 * A file's inode, size and modification time, or `"-"` where there is no
 * such file: a file renamed over the old one, or written, changes it.
 *
 * @example
 * ```ts
 * import { fileStamp } from "./git.ts";
 * fileStamp("/no/such/file"); // "-"
 * ```
 */
export function fileStamp(path: string): string {
  try {
    const info = statSync(path);
    return `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
  } catch {
    return "-";
  }
}
