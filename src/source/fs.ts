// The only module of src/ that touches the file system. `node:fs` and
// `node:fs/promises` behave the same under Deno, Bun and Node, so no runtime
// checks are needed.
import {
  lstat,
  readdir,
  readFile,
  realpath,
  stat as statPromise,
  writeFile,
} from "node:fs/promises";
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readFile as readFileCallback,
  readSync,
  realpathSync,
  stat,
  type Stats,
  statSync,
  watch,
} from "node:fs";
import process from "node:process";
import { setImmediate } from "node:timers";

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
}

/** A file's modification time (epoch ms) and size (bytes). */
export interface Stamp {
  readonly mtime: number;
  readonly size: number;
}

/**
 * The process's working folder (config objects resolve `path` against it).
 *
 * @example
 * ```ts
 * import { cwd } from "./fs.ts";
 * cwd(); // "/srv/site"
 * ```
 */
export function cwd(): string {
  return process.cwd();
}

/**
 * Reads a text file, or `undefined` when it does not exist.
 *
 * @example
 * ```ts
 * import { readText } from "./fs.ts";
 * await readText("content/services.yaml");
 * ```
 */
export async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Whether a path is an existing folder.
 *
 * @example
 * ```ts
 * import { isFolder } from "./fs.ts";
 * await isFolder("content"); // true
 * ```
 */
export async function isFolder(path: string): Promise<boolean> {
  try {
    return (await statPromise(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Why a folder cannot be listed (an error code such as `EACCES`), or
 * `undefined` when it can.
 *
 * @example
 * ```ts
 * import { listingProblem } from "./fs.ts";
 * await listingProblem("content"); // undefined
 * ```
 */
export async function listingProblem(path: string): Promise<string | undefined> {
  try {
    await readdir(path);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/** How {@link listFiles} lists a folder. */
export interface ListOptions {
  /** Whether a file (its path relative to the folder) is wanted. */
  readonly keep: (path: string) => boolean;
  /** Whether a name is never content: such folders are not descended into. */
  readonly skipName: (name: string) => boolean;
  /** Told of a wanted path, or a folder, that is left out, and why. */
  readonly onLeftOut: (path: string, reason: string) => void;
  /** List with blocking calls: for a first load, when nothing is served yet. */
  readonly blocking?: boolean;
}

/**
 * Lists the files under `folder` that `keep` wants, with the modification
 * time of every folder visited. Symbolic links are followed only when their
 * target stays inside `root` (SPEC 3); every folder is visited once, so link
 * cycles end. A missing folder lists nothing.
 *
 * @example
 * ```ts
 * import { listFiles } from "./fs.ts";
 * const listing = await listFiles("/site/content", "/site/content/docs", {
 *   keep: (path) => path.endsWith(".md"),
 *   skipName: (name) => name.startsWith("."),
 *   onLeftOut: (path, reason) => console.warn(path, reason),
 * });
 * listing.files; // [{ path: "intro.md", abs: "/site/content/docs/intro.md" }, …]
 * ```
 */
export async function listFiles(
  root: string,
  folder: string,
  options: ListOptions,
): Promise<Listing> {
  const { keep, skipName, onLeftOut: unreadable, blocking = false } = options;
  const io = blocking
    ? {
      realpath: (path: string) => realpathSync(path),
      readdir: (path: string) => readdirSync(path, { withFileTypes: true }),
      stat: (path: string) => statSync(path),
    }
    : {
      realpath,
      readdir: (path: string) => readdir(path, { withFileTypes: true }),
      stat: statPromise,
    };
  const out: FoundFile[] = [];
  const stamps = new Map<string, number>();
  let irregular = false;
  let realRoot: string, realFolder: string;
  try {
    realRoot = await io.realpath(root);
    realFolder = await io.realpath(folder);
  } catch {
    return { files: out, folders: stamps, irregular };
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
      stamps.set(abs, (await io.stat(abs)).mtimeMs);
      entries = await io.readdir(abs);
    } catch (error) {
      if (rel) unreadable(`${rel}/`, (error as { code?: string }).code ?? "unreadable");
      return;
    }
    const folders: Promise<void>[] = [];
    for (const entry of entries) {
      const name = entry.name;
      if (skipName(name)) continue;
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
          unreadable(childRel, `not a regular file (${other ?? "of an unknown kind"})`);
        }
      }
    }
    await Promise.all(folders);
  };
  await visit(folder, "", realFolder);
  return { files: out, folders: stamps, irregular };
}

/**
 * Whether any of these folders changed (its modification time, which moves
 * when an entry is added, removed or renamed in it) or went away: a few
 * stats that tell whether a listing is due, whatever the watcher saw.
 *
 * @example
 * ```ts
 * import { foldersChanged } from "./fs.ts";
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
 * import { folderStamp } from "./fs.ts";
 * folderStamp("/site/content/faq"); // -1 until the folder exists
 * ```
 */
export function folderStamp(path: string): number {
  try {
    const info = statSync(path);
    return info.isDirectory() ? info.mtimeMs : -1;
  } catch {
    return -1;
  }
}

type Kind = Pick<Stats, "isFIFO" | "isSocket" | "isCharacterDevice" | "isBlockDevice">;

/** What a file that is not regular is, for the warning that names it. */
function direntKind(entry: Kind): string {
  if (entry.isFIFO()) return "a FIFO";
  if (entry.isSocket()) return "a socket";
  if (entry.isCharacterDevice()) return "a character device";
  if (entry.isBlockDevice()) return "a block device";
  return "of an unknown kind";
}

/**
 * A file's modification time and size; throws (an error with a `code`) when
 * it cannot be stat'ed. Synchronous, with no promise and no thread hop: a
 * listing stats every file.
 *
 * @example
 * ```ts
 * import { stampOf } from "./fs.ts";
 * stampOf("/site/content/docs/intro.md"); // { mtime: 1763700000000, size: 2048 }
 * ```
 */
export function stampOf(path: string): Stamp {
  const info = statSync(path);
  return { mtime: info.mtimeMs, size: info.size };
}

/**
 * Stamps many files, yielding to pending I/O every 256 (setImmediate: no
 * timer clamp), so a reload that stats a large site does not hold up requests.
 *
 * @param failed called with a file that cannot be stat'ed and the error code; it is left out
 *
 * @example
 * ```ts
 * import { stampAll } from "./fs.ts";
 * const stamped = await stampAll([{ path: "intro.md", abs: "/site/content/docs/intro.md" }], console.warn);
 * ```
 */
export async function stampAll(
  files: readonly FoundFile[],
  failed: (file: FoundFile, code: string) => void,
): Promise<(FoundFile & Stamp)[]> {
  const out: (FoundFile & Stamp)[] = [];
  for (let i = 0; i < files.length; i++) {
    try {
      out.push({ ...files[i], ...stampOf(files[i].abs) });
    } catch (error) {
      failed(files[i], (error as { code?: string }).code ?? "unreadable");
    }
    if ((i + 1) % 256 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return out;
}

/**
 * Reads a file's bytes, whatever the file is: the benchmark's I/O floor, not
 * for content (see {@link readRegularFile}).
 *
 * @example
 * ```ts
 * import { readBytes } from "./fs.ts";
 * const bytes = await readBytes("/site/content/docs/intro.md");
 * ```
 */
export function readBytes(path: string): Promise<Uint8Array> {
  // The callback form: under Deno cheaper per file than the promise form.
  return new Promise((resolve, reject) =>
    readFileCallback(path, (error, bytes) => error ? reject(error) : resolve(bytes))
  );
}

/**
 * What reading a content file found: its bytes, or why they were not read.
 * Only regular files are read (SPEC 3): a FIFO, a socket or a device is
 * never read from, and a file over the size limit is not read at all.
 */
export type FileRead =
  | {
    readonly kind: "file";
    readonly bytes: Uint8Array;
    readonly mtime: number;
    readonly size: number;
  }
  | { readonly kind: "too large"; readonly mtime: number; readonly size: number }
  | { readonly kind: "not a regular file"; readonly what: string };

// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer,
// holding a thread of the runtime's I/O pool (or the main thread) forever.
// Opened this way, nothing waits, and fstat on the open file tells what it
// is before any byte is read, with no window for it to be swapped between a
// stat and the read.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What a path that is not a regular file is, for the warning that names it. */
function whatIs(info: Stats): string {
  return info.isDirectory() ? "a folder" : direntKind(info);
}

function classify(info: Stats, maxSize: number): FileRead | undefined {
  if (!info.isFile()) return { kind: "not a regular file", what: whatIs(info) };
  if (info.size > maxSize) return { kind: "too large", mtime: info.mtimeMs, size: info.size };
  return undefined;
}

/**
 * Reads a regular file of at most `maxSize` bytes with blocking calls: for
 * a thread that has nothing else to do meanwhile (the start-up helper, or the
 * first load, before anything is served). A FIFO or device is opened without
 * waiting and closed unread; a larger file is closed unread. Throws an error
 * with a `code` when the file cannot be opened.
 *
 * @example
 * ```ts
 * import { readRegularFileSync } from "./fs.ts";
 * const read = readRegularFileSync("/site/content/docs/intro.md", 10 * 1024 * 1024);
 * if (read.kind === "file") console.log(read.bytes.length);
 * ```
 */
export function readRegularFileSync(path: string, maxSize: number): FileRead {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const info = fstatSync(fd);
    const skipped = classify(info, maxSize);
    if (skipped) return skipped;
    // At most the size fstat gave: a file that grows while it is read is read as it was.
    const bytes = new Uint8Array(info.size);
    let at = 0;
    while (at < bytes.length) {
      const got = readSync(fd, bytes, at, bytes.length - at, at);
      if (got === 0) break;
      at += got;
    }
    const read = at === bytes.length ? bytes : bytes.subarray(0, at);
    return { kind: "file", bytes: read, mtime: info.mtimeMs, size: info.size };
  } finally {
    closeSync(fd);
  }
}

/**
 * {@link readRegularFileSync} without blocking the thread: for reloads and
 * requests, while the server answers others. A stat tells a regular file
 * and its size first; the read itself opens with `O_NONBLOCK` too, so a
 * file swapped for a FIFO in between cannot make it wait either.
 *
 * @example
 * ```ts
 * import { readRegularFile } from "./fs.ts";
 * const read = await readRegularFile("/site/content/docs/intro.md", 10 * 1024 * 1024);
 * ```
 */
export function readRegularFile(path: string, maxSize: number): Promise<FileRead> {
  // Two callback calls, not four on a descriptor: under Deno each call is a
  // round trip, and a first search reads every body this way.
  return new Promise((resolve, reject) => {
    stat(path, (error, info) => {
      if (error) return reject(error);
      const skipped = classify(info, maxSize);
      if (skipped) return resolve(skipped);
      readFileCallback(path, { flag: OPEN_FLAGS }, (error, bytes) => {
        if (error) return reject(error);
        if (bytes.length > maxSize) {
          return resolve({ kind: "too large", mtime: info.mtimeMs, size: bytes.length });
        }
        resolve({ kind: "file", bytes, mtime: info.mtimeMs, size: info.size });
      });
    });
  });
}

/**
 * Writes a text file (creating or replacing it).
 *
 * @example
 * ```ts
 * import { writeText } from "./fs.ts";
 * await writeText("snapshot.json", "{}");
 * ```
 */
export async function writeText(path: string, text: string): Promise<void> {
  await writeFile(path, text);
}

/**
 * Calls `onChange` when anything under `folder` changes, through the
 * runtime's recursive file watcher. Returns a function that stops watching,
 * or `undefined` when this runtime or file system cannot watch (the caller
 * then polls).
 *
 * @example
 * ```ts
 * import { watchFolder } from "./fs.ts";
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

/**
 * What a path is now, without following a link: a file (with its mtime and
 * size), a folder, a link, something else, or missing.
 *
 * @example
 * ```ts
 * import { entryInfo } from "./fs.ts";
 * await entryInfo("/site/content/docs/intro.md"); // { kind: "file", mtime: …, size: … }
 * ```
 */
export async function entryInfo(
  path: string,
): Promise<
  { kind: "file" | "folder" | "link" | "other" | "missing"; mtime: number; size: number }
> {
  try {
    const info = await lstat(path);
    const kind = info.isSymbolicLink()
      ? "link"
      : info.isDirectory()
      ? "folder"
      : info.isFile()
      ? "file"
      : "other";
    return { kind, mtime: info.mtimeMs, size: info.size };
  } catch {
    return { kind: "missing", mtime: 0, size: 0 };
  }
}
