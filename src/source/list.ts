// Listing content folders: which files are there, which folders (with their
// modification times), and which paths are not regular files.
import { readdir, realpath, stat } from "node:fs/promises";
import { realpathSync, statSync } from "node:fs";
import { folderTime, readFolderSync, statStamp } from "../adapters/file_system.ts";

/** A file found under a plugin folder. */
export interface FoundFile {
  /** Path relative to the plugin folder, `/`-separated. */
  readonly path: string;
  /** Absolute path to read. */
  readonly abs: string;
}

/** What listing a plugin folder found. */
export interface Listing {
  /** The files that `keep` selected. */
  readonly files: FoundFile[];
  /** Every folder visited (absolute path) and its modification time, which changes when its entries do. */
  readonly folders: Map<string, number>;
  /** Whether a selected path was not a regular file (a FIFO, a socket, a device). */
  readonly irregular: boolean;
  /**
   * The entries' names (sorted, joined by NUL) of each folder whose time was
   * within {@link RECENT_MS} of its listing: on a file system with coarse
   * times a change just after the listing may leave the time as it was, and
   * these names tell a later look whether the entries are still those read.
   */
  readonly recent: Map<string, string>;
  /**
   * Set when the folder itself could not be listed: why (`ENOENT` when it
   * does not exist, `ENOTDIR` when it is a file, `EACCES`). Its files are
   * then none, and the caller says so (SPEC 15: a plugin's missing folder).
   */
  readonly unlisted?: string;
}

/** A path the listing leaves out, and why. */
export interface LeftOutPath {
  /** Relative to the listed folder; a folder's ends with `/`. */
  readonly path: string;
  /** Whether it is a folder that could not be read (its files are unknown). */
  readonly folder: boolean;
  /** What is wrong with it, for a warning (`EACCES`, `a broken symbolic link`). */
  readonly problem: string;
  /** Why it is left out (SPEC 15). */
  readonly reason: "unreadable" | "not a regular file";
}

/** How {@link listFiles} lists a folder. */
export interface ListOptions {
  /** Whether a file (its path relative to the folder) is wanted. */
  readonly keep: (path: string) => boolean;
  /** Whether a name is never content (`nested`: inside a folder of the listing): such folders are not descended into. */
  readonly skipName: (name: string, nested: boolean) => boolean;
  /**
   * Told of a wanted file, a folder or a symbolic link that is left out, and
   * why (a link that is not followed is told whatever its name).
   */
  readonly onLeftOut: (left: LeftOutPath) => void;
  /** Told of each other file (not a folder) that `keep` does not want. */
  readonly onPassed?: (path: string) => void;
  /** List with blocking calls: for a first load, when nothing is served yet. */
  readonly blocking?: boolean;
}

/** How near its listing a folder's time is recent enough to keep its entries' names (`Listing.recent`), in ms. */
export const RECENT_MS = 10_000;

/** A folder's entries' names, sorted and joined by NUL: what `Listing.recent` keeps. */
function namesOf(entries: readonly { name: string }[]): string {
  return entries.map((entry) => entry.name).sort().join("\0");
}

/**
 * A folder's entries' names as `Listing.recent` keeps them, read now
 * (blocking); `undefined` when it cannot be read.
 *
 * @example
 * ```ts
 * import { entryNames } from "./list.ts";
 * entryNames("/site/content"); // "blog\0docs\0services.yaml"
 * ```
 */
export function entryNames(path: string): string | undefined {
  try {
    return namesOf(readFolderSync(path));
  } catch {
    return undefined;
  }
}

/**
 * Lists the files under `folder` that `keep` wants, with the modification
 * time of every folder visited. Symbolic links are followed only when their
 * target stays inside `root` (SPEC 3); every folder is visited once, so link
 * cycles end. A missing folder lists nothing, and says why (`unlisted`).
 *
 * @example
 * ```ts
 * import { listFiles } from "./list.ts";
 * const listing = await listFiles("/site/content", "/site/content/docs", {
 *   keep: (path) => path.endsWith(".md"),
 *   skipName: (name) => name.startsWith("."),
 *   onLeftOut: ({ path, problem }) => console.warn(path, problem),
 * });
 * listing.files; // [{ path: "intro.md", abs: "/site/content/docs/intro.md" }, …]
 * ```
 */
export async function listFiles(
  root: string,
  folder: string,
  options: ListOptions,
): Promise<Listing> {
  const { keep, skipName, onLeftOut, onPassed, blocking = false } = options;
  const unreadable = (path: string, problem: string) =>
    onLeftOut({ path, folder: false, problem, reason: "unreadable" });
  const io = blocking
    ? {
      realpath: (path: string) => realpathSync(path),
      readdir: readFolderSync,
      stat: (path: string) => statSync(path),
      // A folder's modification time: once per folder, in the runtime's fastest stat.
      folderTime: (path: string) => statStamp(path).mtime,
    }
    : {
      realpath,
      readdir: (path: string) => readdir(path, { withFileTypes: true }),
      stat,
      folderTime: async (path: string) => (await stat(path)).mtimeMs,
    };
  const out: FoundFile[] = [];
  const stamps = new Map<string, number>();
  const recent = new Map<string, string>();
  let irregular = false;
  let unlisted: string | undefined;
  let realRoot: string, realFolder: string;
  try {
    realRoot = await io.realpath(root);
    realFolder = await io.realpath(folder);
  } catch (error) {
    return { files: out, folders: stamps, irregular, recent, unlisted: errorCode(error) };
  }
  const inside = (real: string) => real === realRoot || real.startsWith(`${realRoot}/`);
  // Real paths of the folders visited, so a link back to an ancestor ends.
  const seen = new Set<string>();
  // A folder's real path is its parent's plus its name, unless it is reached
  // through a link: only links are resolved, so listing stays linear in the
  // number of folders however deep they nest.
  const visit = async (abs: string, rel: string, real: string): Promise<void> => {
    if (!inside(real) || seen.has(real)) return;
    seen.add(real);
    let entries;
    try {
      const time = await io.folderTime(abs);
      stamps.set(abs, time);
      entries = await io.readdir(abs);
      if (time >= Date.now() - RECENT_MS) recent.set(abs, namesOf(entries));
    } catch (error) {
      const problem = errorCode(error);
      if (rel) onLeftOut({ path: `${rel}/`, folder: true, problem, reason: "unreadable" });
      else unlisted = problem;
      return;
    }
    const folders: Promise<void>[] = [];
    for (const entry of entries) {
      const name = entry.name;
      if (skipName(name, rel !== "")) continue;
      const childAbs = `${abs}/${name}`;
      const childRel = rel ? `${rel}/${name}` : name;
      let childReal = `${real}/${name}`;
      let isDir = entry.isDirectory(), isFile = entry.isFile();
      let other: string | undefined;
      if (!isDir && !isFile && !entry.isSymbolicLink()) {
        // Some runtimes' entries tell only files, folders and links apart (Deno): ask the file.
        try {
          other = direntKind(await io.stat(childAbs));
        } catch {
          other = direntKind(entry);
        }
      }
      if (entry.isSymbolicLink()) {
        try {
          childReal = await io.realpath(childAbs);
          if (!inside(childReal)) {
            unreadable(
              childRel,
              "a symbolic link that leads outside the content root; not followed",
            );
            continue;
          }
          const info = await io.stat(childAbs);
          isDir = info.isDirectory();
          isFile = info.isFile();
          if (!isDir && !isFile) other = direntKind(info);
        } catch {
          unreadable(childRel, "a broken symbolic link");
          continue;
        }
      }
      if (isDir) folders.push(visit(childAbs, childRel, childReal));
      else if (keep(childRel)) {
        if (isFile) out.push({ path: childRel, abs: childAbs });
        else {
          irregular = true;
          const problem = `not a regular file (${other ?? "of an unknown kind"})`;
          onLeftOut({ path: childRel, folder: false, problem, reason: "not a regular file" });
        }
      } else onPassed?.(childRel);
    }
    await Promise.all(folders);
  };
  await visit(folder, "", realFolder);
  return { files: out, folders: stamps, irregular, recent, ...(unlisted ? { unlisted } : {}) };
}

/** A file system error's code (`ENOENT`), or `unreadable` when it has none. */
function errorCode(error: unknown): string {
  return (error as { code?: string }).code ?? "unreadable";
}

/**
 * Whether any of these folders changed (its modification time, which moves
 * when an entry is added, removed or renamed in it) or went away: a few
 * stats that tell whether a listing is due, whatever the watcher saw.
 *
 * @example
 * ```ts
 * import { foldersChanged } from "./list.ts";
 * foldersChanged(new Map([["/site/content/docs", 1763700000000]])); // false
 * ```
 */
export function foldersChanged(folders: ReadonlyMap<string, number>): boolean {
  for (const [path, mtime] of folders) if (folderStamp(path) !== mtime) return true;
  return false;
}

/**
 * A folder's modification time, or -1 when there is no folder at the path
 * (so that one appearing there is a change too).
 *
 * @example
 * ```ts
 * import { folderStamp } from "./list.ts";
 * folderStamp("/site/content/faq"); // -1 until the folder exists
 * ```
 */
export function folderStamp(path: string): number {
  try {
    return folderTime(path);
  } catch {
    return -1;
  }
}

// Spelled out, not `Pick<Stats, …>`: the package's declarations then import
// nothing from node:fs, so a TypeScript project without @types/node compiles.
type Kind = {
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
};

/**
 * What a file that is not regular is, for the warning that names it.
 *
 * @example
 * ```ts
 * import { direntKind } from "./list.ts";
 * import { statSync } from "node:fs";
 * direntKind(statSync("/dev/null")); // "a character device"
 * ```
 */
export function direntKind(entry: Kind): string {
  if (entry.isFIFO()) return "a FIFO";
  if (entry.isSocket()) return "a socket";
  if (entry.isCharacterDevice()) return "a character device";
  if (entry.isBlockDevice()) return "a block device";
  return "of an unknown kind";
}
