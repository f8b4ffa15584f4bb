// A restart's check of the files git vouches for (SPEC 17). A restart may
// serve the kept full feed only when every content file is as the stopping
// server read it. A stat of each file tells that (10,000 stats: 45–70 ms of
// Deno's main thread, more while its code is cold); `git status` tells it of
// the files git tracks, with its own stats in C on the other core. So a
// stopping server that finds git able to vouch for a file (tracked, clean,
// a regular file, with no setting or attribute under which git's
// "unchanged" is not "the same bytes") leaves it to git at the next start;
// every other file (changed in the work tree, untracked, ignored, a link) is
// stat'ed as before, and every folder's time says no file was added,
// removed or renamed. Anything this cannot tell sends the start to the full
// check (`currentRestartKey`): a vouch only ever saves work.
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import process from "node:process";
import { MAX_OUTPUT } from "../adapters/run_process.ts";
import { statStamp } from "../adapters/file_system.ts";
import {
  commonDirOf,
  execGit,
  execGitSync,
  fileStamp,
  gitArgs,
  gitEnv,
  refStamp,
  replacementsOf,
  stateKeyOf,
} from "./git.ts";
import { RACY_MS, type ReadStamps } from "./loader_types.ts";
import { entryNames } from "./list.ts";
import { sameStamp } from "./stamp.ts";

/** What a stopping server found git vouching for, for the next start (kept with the full feed). */
export interface GitVouch {
  /** Git's folder (`--absolute-git-dir`). */
  readonly gitDir: string;
  /** HEAD's commit: `git status` says it again at the start. */
  readonly commit: string;
  /** Where the content root sits in the work tree (`docs/`, or `""`). */
  readonly prefix: string;
  /** HEAD, the ref it names and git's index, stamped (`refStamp`): a commit, checkout, reset or `git add` changes it. */
  readonly ref: string;
  /** The files changed in the work tree, relative to the content root, sorted. */
  readonly dirty: readonly string[];
  /** Every folder listed, with its modification time: no entry was added, removed or renamed. */
  readonly folders: readonly (readonly [string, number])[];
  /** The files git does not vouch for, stamped (path, size, mtime, inode, ctime). */
  readonly files: readonly (readonly [string, number, number, number, number])[];
  /**
   * Every file git reads attributes from for the content, stamped (`"-"`
   * where there was none): an attribute added since the stop may make git's
   * "unchanged" another thing than "the same bytes".
   */
  readonly attributes: readonly (readonly [string, string])[];
  /** The user's attributes file as git found it at the stop: the start's `git status` reads that one. */
  readonly attributesFile: string;
}

/** Runs git to its end: its output when it exited with one of `ok`, else `undefined`. */
function gitSync(root: string, args: readonly string[], ok = [0]) {
  const run = execGitSync(root, args, GIT_TIMEOUT_MS);
  return ok.includes(run.code) ? run.stdout : undefined;
}

/**
 * Runs git to its end with `input` on its standard input, read from a
 * file: Deno's `spawnSync` writes all of an `input` before it reads the
 * output, and git writing more than a pipe holds meanwhile would wait for
 * ever. Through `sh`: where there is none (Windows), `undefined`.
 */
function gitSyncWithInput(root: string, args: readonly string[], input: string) {
  const file = join(tmpdir(), `content-feed-${process.pid}-${crypto.randomUUID()}`);
  try {
    writeFileSync(file, input, { mode: 0o600 });
    const run = spawnSync("sh", ["-c", 'exec git "$@" < "$0"', file, ...gitArgs(root, args)], {
      env: gitEnv(),
      encoding: "utf8",
      maxBuffer: MAX_OUTPUT,
      stdio: ["ignore", "pipe", "ignore"],
      timeout: GIT_TIMEOUT_MS,
    });
    return run.error || run.status !== 0 ? undefined : run.stdout;
  } catch {
    return undefined;
  } finally {
    rmSync(file, { force: true });
  }
}

/**
 * The user's attributes file as git finds it (`core.attributesFile`, else
 * `$XDG_CONFIG_HOME/git/attributes`, else `~/.config/git/attributes`), or
 * `undefined` where it cannot be told. `setting` is the configured value; a
 * relative one is relative to the work tree's top (`top`), where git runs.
 */
function userAttributesFile(top: string, setting: string | undefined): string | undefined {
  const home = process.env.HOME;
  if (setting !== undefined) {
    if (setting === "~" || setting.startsWith("~/")) {
      return home ? join(home, setting.slice(1)) : undefined;
    }
    // `~user/…` (another user's home) and `%(prefix)/…` (where git is installed): not told here.
    if (setting.startsWith("~") || setting.startsWith("%(")) return undefined;
    return isAbsolute(setting) ? setting : resolve(top, setting);
  }
  const xdg = process.env.XDG_CONFIG_HOME;
  if (xdg) return join(xdg, "git", "attributes");
  return home ? join(home, ".config", "git", "attributes") : undefined;
}

/**
 * Where git is installed by the usual builds, whose system attributes file
 * (`$(prefix)/etc/gitattributes`) is stamped: a git installed elsewhere
 * reads its own, which is not.
 */
const SYSTEM_ATTRIBUTES = [
  "/etc/gitattributes",
  "/usr/local/etc/gitattributes",
  "/opt/homebrew/etc/gitattributes",
];

/**
 * The files git reads attributes from for the files under the root, each
 * stamped: `.gitattributes` in the work tree's top (`top`, git's own path)
 * and in each folder of `prefix` above the root (there or not), in each
 * listed folder where there is one (one added later changes its folder's
 * time), the repository's `info/attributes`, the user's file and the
 * system's.
 */
function attributeStamps(
  top: string,
  prefix: string,
  gitDir: string,
  folders: Iterable<string>,
  userFile: string,
): [string, string][] {
  const stamps: [string, string][] = [];
  const stamp = (path: string) => stamps.push([path, fileStamp(path)]);
  // The top, and the folders between it and the root (the root's is in `folders`).
  const steps = prefix.split("/").filter((step) => step !== "");
  for (let depth = 0; depth < steps.length; depth++) {
    stamp(join(top, ...steps.slice(0, depth), ".gitattributes"));
  }
  for (const folder of folders) {
    const path = join(folder, ".gitattributes");
    const found = fileStamp(path);
    if (found !== "-") stamps.push([path, found]);
  }
  stamp(join(commonDirOf(gitDir), "info", "attributes"));
  stamp(userFile);
  for (const path of SYSTEM_ATTRIBUTES) stamp(path);
  return stamps;
}

/**
 * What `git status --porcelain=v2 --branch -z` says: HEAD's commit, and
 * the changed files relative to the content root (under `prefix`), sorted;
 * `undefined` where it names a path outside the prefix (a file system that
 * matched the root's path ignoring case) or cannot be read.
 */
function statusOf(text: string, prefix: string): { commit: string; dirty: string[] } | undefined {
  let commit = "";
  const found = new Set<string>();
  for (const entry of text.split("\0")) {
    if (entry === "") continue;
    let path: string | undefined;
    if (entry.startsWith("# branch.oid ")) commit = entry.slice("# branch.oid ".length);
    else if (entry.startsWith("# ")) continue;
    // An ordinary change: eight fields, then the path (which may hold spaces). No renames or
    // copies (`--no-renames`).
    else if (entry.startsWith("1 ")) path = afterFields(entry, 8);
    // Unmerged: ten fields, then the path.
    else if (entry.startsWith("u ")) path = afterFields(entry, 10);
    else return undefined;
    if (path === undefined) continue;
    if (!path.startsWith(prefix)) return undefined;
    found.add(path.slice(prefix.length));
  }
  return /^[0-9a-f]{40,64}$/.test(commit) ? { commit, dirty: [...found].sort() } : undefined;
}

/** What follows the first `count` space-separated fields of a status entry. */
function afterFields(entry: string, count: number): string | undefined {
  let at = -1;
  for (let i = 0; i < count; i++) {
    at = entry.indexOf(" ", at + 1);
    if (at === -1) return undefined;
  }
  return entry.slice(at + 1);
}

/**
 * `git status`'s arguments: HEAD's commit and the tracked files changed
 * under the root, with the settings that decide what "changed" means fixed
 * (a start must not trust a setting made since the stop that compares less),
 * the user's attributes file among them.
 */
function statusArgs(attributesFile: string): string[] {
  return [
    "-c",
    "core.autocrlf=false",
    "-c",
    "core.checkStat=default",
    "-c",
    "core.ignoreStat=false",
    "-c",
    `core.attributesFile=${attributesFile}`,
    "status",
    "--porcelain=v2",
    "--branch",
    "--no-ahead-behind",
    "-z",
    "--untracked-files=no",
    // Rename detection reads blobs, which a partial clone may not have (and git does not fetch).
    "--no-renames",
    "--",
    ".",
  ];
}

/**
 * The environment variables that point git elsewhere, or change where it
 * reads attributes (no system file, a tree's): with any of them set, at the
 * stop or at the start, git vouches for nothing.
 */
const GIT_PLACES = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_COMMON_DIR",
  "GIT_ATTR_NOSYSTEM",
  "GIT_ATTR_SOURCE",
];

/** How long one git process may run at a stop or a start before it is given up on, in ms. */
const GIT_TIMEOUT_MS = 30_000;

/**
 * What `git config -z --get-regexp` says: whether it names a setting under
 * which git's "unchanged" is not "the same bytes", or under which it looks
 * at less than the stat (line-ending conversion, a minimal stat check,
 * stats ignored; a key given without a value is `true`), or that reads
 * attributes from a tree (`attr.tree`, whose ref may move with no file of
 * the work tree changing), and the user's attributes file where one is set
 * (the last value wins, as in git).
 */
function readSettings(text: string): { unsafe: boolean; attributesFile?: string } {
  let unsafe = false;
  let attributesFile: string | undefined;
  for (const entry of text.split("\0")) {
    if (entry === "") continue;
    const newline = entry.indexOf("\n");
    const key = (newline === -1 ? entry : entry.slice(0, newline)).toLowerCase();
    const raw = newline === -1 ? undefined : entry.slice(newline + 1);
    const value = raw === undefined ? "true" : raw.trim().toLowerCase();
    const off = ["false", "no", "off", "0"].includes(value);
    if (key === "core.autocrlf" && !off) unsafe = true;
    if (key === "core.ignorestat" && !off) unsafe = true;
    if (key === "core.checkstat" && value !== "default") unsafe = true;
    if (key === "attr.tree") unsafe = true;
    // A key without a value is no path: git refuses it, so does this.
    if (key === "core.attributesfile") {
      if (raw === undefined) unsafe = true;
      else attributesFile = raw;
    }
  }
  return attributesFile === undefined ? { unsafe } : { unsafe, attributesFile };
}

/** Attributes that make a file's bytes differ from what git compares (`text`, a filter, …). */
const CONVERTING = ["text", "eol", "crlf", "filter", "ident", "working-tree-encoding"];

/**
 * What git vouches for in the content as a stopping server read it (see
 * the file's head), or `undefined` when it vouches for nothing here: git
 * not run, a shallow clone, another index file, a setting or attribute
 * that converts bytes, a file flagged to be assumed unchanged or skipped,
 * the work tree not as the server's dates were read from it (`stateKey`,
 * its tracker's `GitTracker.stateKey`), or a file or folder not as it was
 * read or listed. Git runs first and the stamps are taken after it, so
 * what git found clean is what the server read. Synchronous: run once, as
 * the server stops.
 *
 * @example
 * ```ts
 * import { vouchAtStop } from "./git_vouch.ts";
 * const vouch = vouchAtStop(
 *   "/site/content",
 *   {
 *     folders: new Map([["/site/content", 1_700_000_000_000]]),
 *     listedAt: 1_700_000_100_000,
 *     recent: new Map(),
 *     warned: false,
 *     files: [{ abs: "/site/content/a.md", size: 10, mtime: 1_700_000_000_000, ino: 12,
 *       ctime: 1_700_000_000_000 }],
 *   },
 *   "…", // the tracker's state key
 *   (path) => path.endsWith(".md"), // whether git dates the file
 * );
 * ```
 */
export function vouchAtStop(
  root: string,
  read: ReadStamps,
  stateKey: string | undefined,
  dated: (path: string) => boolean,
): GitVouch | undefined {
  if (stateKey === undefined || read.warned || GIT_PLACES.some((name) => process.env[name])) {
    return undefined;
  }
  const head = gitSync(root, [
    "rev-parse",
    "--absolute-git-dir",
    "--show-toplevel",
    "--show-prefix",
    "--is-shallow-repository",
    "--verify",
    "-q",
    "HEAD^{commit}",
  ]);
  const [gitDir = "", top = "", prefix = "", shallow = "", commit = ""] = (head ?? "").split(
    "\n",
  );
  if (!gitDir || !top || shallow !== "false" || !/^[0-9a-f]{40,64}$/.test(commit)) {
    return undefined;
  }
  const ref = refStamp(gitDir);
  // `git config` exits 1 when no such setting is set.
  const settings = gitSync(
    root,
    [
      "config",
      "-z",
      "--get-regexp",
      "^(core\\.(autocrlf|checkstat|ignorestat|attributesfile)|attr\\.tree)$",
    ],
    [0, 1],
  );
  if (settings === undefined) return undefined;
  const { unsafe, attributesFile: setting } = readSettings(settings);
  const attributesFile = userAttributesFile(top, setting);
  if (unsafe || attributesFile === undefined) return undefined;
  // The tracked regular files: any flag (assumed unchanged, skip-worktree) or conflict vouches for nothing.
  const listed = gitSync(root, ["ls-files", "-s", "-v", "-z", "--", "."]);
  if (listed === undefined) return undefined;
  const tracked = new Set<string>();
  for (const entry of listed.split("\0")) {
    if (entry === "") continue;
    if (!entry.startsWith("H ")) return undefined;
    const tab = entry.indexOf("\t");
    const mode = entry.slice(2, 8);
    if (mode === "100644" || mode === "100755") tracked.add(entry.slice(tab + 1));
  }
  const base = `${root}/`;
  const candidates = read.files.map((file) => file.abs.slice(base.length))
    .filter((path) => tracked.has(path));
  if (candidates.length > 0) {
    // The user's attributes file as it is stamped, and as the start's `git status` reads it.
    const attributes = gitSyncWithInput(
      root,
      ["-c", `core.attributesFile=${attributesFile}`, "check-attr", "-z", "--stdin", ...CONVERTING],
      candidates.join("\0") + "\0",
    );
    if (attributes === undefined) return undefined;
    const parts = attributes.split("\0");
    for (let i = 2; i < parts.length; i += 3) if (parts[i] !== "unspecified") return undefined;
  }
  const text = gitSync(root, statusArgs(attributesFile));
  const status = text === undefined ? undefined : statusOf(text, prefix);
  if (status === undefined || status.commit !== commit) return undefined;
  const dirty = status.dirty;
  // The dates the server gave were read from this HEAD and this work tree.
  const at = { commit, prefix, shallow: "", replaced: replacementsOf(gitDir) };
  if (stateKeyOf(at, new Set(dirty)) !== stateKey) return undefined;
  // After git: every folder and file as the server listed and read it, so git's "clean" was of
  // the bytes it read.
  const folders: [string, number][] = [];
  for (const [path, mtime] of read.folders) {
    try {
      if (statStamp(path).mtime !== mtime) return undefined;
    } catch {
      return undefined;
    }
    // A folder changed near its listing (the state folder made in the content root by a first
    // start): on a file system with coarse times a change just after the listing may have left
    // its time as it was, so its entries now must be those the listing read, and its time long
    // enough ago that any change from now on shows in it.
    if (!(mtime < read.listedAt - RACY_MS)) {
      const names = read.recent.get(path);
      if (names === undefined || !(mtime < Date.now() - RACY_MS) || entryNames(path) !== names) {
        return undefined;
      }
    }
    folders.push([path, mtime]);
  }
  const dirtySet = new Set(dirty);
  const files: [string, number, number, number, number][] = [];
  for (const file of read.files) {
    try {
      if (!sameStamp(statStamp(file.abs), file)) return undefined;
    } catch {
      return undefined;
    }
    const path = file.abs.startsWith(base) ? file.abs.slice(base.length) : undefined;
    // A file with no commit dates is dated by its modification time, which git does not vouch for.
    if (path === undefined || !tracked.has(path) || dirtySet.has(path) || !dated(path)) {
      files.push([file.abs, file.size, file.mtime, file.ino, file.ctime]);
    }
  }
  // Stamped after git asked them: what it read is what was stamped, or a change shows.
  const attributes = attributeStamps(top, prefix, gitDir, read.folders.keys(), attributesFile);
  // Nothing of git's moved while it was asked.
  if (refStamp(gitDir) !== ref) return undefined;
  return {
    gitDir,
    commit,
    prefix,
    ref,
    dirty,
    folders,
    files,
    attributes,
    attributesFile,
  };
}

/**
 * Whether the content is still as `vouch` says (a start's check, SPEC 17):
 * HEAD, its ref and git's index unchanged, every folder's time, every
 * file git does not vouch for and every attributes file as they were, and
 * `git status` naming the same changed files. One git process; a stat per
 * folder, per file git does not vouch for and per attributes file.
 *
 * @example
 * ```ts
 * import { stillVouched, type GitVouch } from "./git_vouch.ts";
 * declare const vouch: GitVouch;
 * if (await stillVouched("/site/content", vouch)) console.log("as the last server left it");
 * ```
 */
export function stillVouched(root: string, vouch: GitVouch): Promise<boolean> {
  if (GIT_PLACES.some((name) => process.env[name])) return Promise.resolve(false);
  if (refStamp(vouch.gitDir) !== vouch.ref) return Promise.resolve(false);
  // Started first: git stats the tracked files on the other core while this one stats the rest.
  // Anything git says on its error output (a folder it cannot read) is no clean answer.
  const status = execGit(root, statusArgs(vouch.attributesFile), GIT_TIMEOUT_MS).then((run) =>
    run.code === 0 && run.stderr === "" ? run.stdout : undefined
  );
  const same = sameStamps(vouch);
  return status.then((text) => {
    const now = text === undefined ? undefined : statusOf(text, vouch.prefix);
    if (!same || now === undefined || now.commit !== vouch.commit) return false;
    return now.dirty.length === vouch.dirty.length &&
      now.dirty.every((path, i) => path === vouch.dirty[i]);
  });
}

/** Whether every folder's time and every stamped file are as `vouch` keeps them. */
function sameStamps(vouch: GitVouch): boolean {
  for (const [path, stamp] of vouch.attributes) if (fileStamp(path) !== stamp) return false;
  try {
    for (const [path, mtime] of vouch.folders) if (statStamp(path).mtime !== mtime) return false;
    for (const [path, size, mtime, ino, ctime] of vouch.files) {
      if (!sameStamp(statStamp(path), { size, mtime, ino, ctime })) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a stored value is a {@link GitVouch} (a kept image's is read
 * back from a file: anything else is no vouch).
 *
 * @example
 * ```ts
 * import { isGitVouch } from "./git_vouch.ts";
 * isGitVouch({}); // false
 * ```
 */
export function isGitVouch(value: unknown): value is GitVouch {
  const v = value as Partial<Record<keyof GitVouch, unknown>> | null | undefined;
  const text = (x: unknown) => typeof x === "string";
  const number = (x: unknown) => typeof x === "number";
  return !!v && text(v.gitDir) && text(v.commit) && text(v.prefix) && text(v.ref) &&
    Array.isArray(v.dirty) && v.dirty.every(text) &&
    Array.isArray(v.folders) &&
    v.folders.every((f) => Array.isArray(f) && f.length === 2 && text(f[0]) && number(f[1])) &&
    Array.isArray(v.files) &&
    v.files.every((f) =>
      Array.isArray(f) && f.length === 5 && text(f[0]) && number(f[1]) && number(f[2]) &&
      number(f[3]) && number(f[4])
    ) &&
    Array.isArray(v.attributes) &&
    v.attributes.every((a) => Array.isArray(a) && a.length === 2 && text(a[0]) && text(a[1])) &&
    text(v.attributesFile);
}
