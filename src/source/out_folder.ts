// The folder `content-feed build` writes (issue 28): which folders it may
// replace, and the replacing itself. The files are written into a staging
// folder beside the target and renamed into place at the end, so a build
// that fails leaves the previous one as it was, and none is ever half
// written where a host serves it.
import { lstat, mkdir, readdir, realpath, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";

/** The file that marks a folder as a build (the next build may replace it without `--force`). */
export const BUILD_MARKER = ".content-feed-build";

/** A folder a build must not write: its message is the one line the command prints. */
export class OutFolderRefused extends Error {
  override name = "OutFolderRefused";
}

/** What decides whether a build may replace a folder. */
export interface OutFolderRules {
  /** The working directory: a relative path must stay inside it. */
  readonly cwd: string;
  /** Replace a folder that exists and is no build (`--force`). */
  readonly force: boolean;
  /**
   * Folders the build must never replace nor hold (the content root, the
   * config's folder, the state folder), each with what it is, for the message.
   */
  readonly keep: readonly { readonly path: string; readonly what: string }[];
  /** Folders the build must not be written inside either (the plugins' folders: it would be content). */
  readonly read: readonly { readonly path: string; readonly what: string }[];
}

/** A build being written: its files go to a staging folder until {@link StagedFolder.commit}. */
export interface StagedFolder {
  /** The folder the build replaces, absolute, its links resolved. */
  readonly target: string;
  /**
   * Writes one file at a `/`-separated relative path (its folders made as
   * needed). A path with an empty, `.` or `..` segment, or written twice, is
   * an error: a build never writes outside its folder, nor one file over another.
   */
  write(path: string, bytes: Uint8Array | string): Promise<void>;
  /** Marks the staging folder as a build and renames it into place (the old one removed after). */
  commit(): Promise<void>;
  /** Removes the staging folder (a failed build): the target is as it was. */
  discard(): Promise<void>;
}

/** Whether `inner` is `outer` itself or lies below it (absolute paths). */
const within = (outer: string, inner: string) => {
  const rel = relative(outer, inner);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
};

/** A path with the links of its longest existing part resolved (the rest need not exist yet). */
async function realPathOf(path: string): Promise<string> {
  const rest: string[] = [];
  let at = path;
  for (;;) {
    try {
      return join(await realpath(at), ...rest.reverse());
    } catch {
      const parent = dirname(at);
      if (parent === at) return path;
      rest.push(basename(at));
      at = parent;
    }
  }
}

/**
 * Checks that a build may write `out` and returns its absolute path, links
 * resolved. Refused, with a {@link OutFolderRefused} that says why in one
 * line: a relative path that leads outside the working directory (a folder
 * elsewhere is named by an absolute path: that is what "given explicitly"
 * means); a symbolic link, or a file; the working directory, the root, or
 * a folder that holds them or one of `rules.keep`, or lies in one of
 * `rules.read` (even with `force`); a folder that exists, is not empty and
 * holds no {@link BUILD_MARKER}, unless `rules.force`.
 *
 * @example
 * ```ts
 * import { checkOutFolder } from "./out_folder.ts";
 * const target = await checkOutFolder("public", {
 *   cwd: "/site", force: false, keep: [{ path: "/site/content", what: "the content root" }], read: [],
 * }); // "/site/public"
 * ```
 */
export async function checkOutFolder(out: string, rules: OutFolderRules): Promise<string> {
  if (out.trim() === "") throw new OutFolderRefused("the folder to build into is empty");
  const cwd = await realPathOf(resolve(rules.cwd));
  const given = resolve(rules.cwd, out);
  const target = await realPathOf(given);
  if (!isAbsolute(out) && !within(cwd, target)) {
    throw new OutFolderRefused(
      `${out} is outside the working directory (${target}); to build there, give it as an absolute path`,
    );
  }
  if (within(target, cwd)) {
    throw new OutFolderRefused(
      `${out} is ${
        target === cwd ? "" : "a folder that holds "
      }the working directory; name a folder of its own`,
    );
  }
  for (const { path, what } of rules.keep) {
    const kept = await realPathOf(path);
    if (within(target, kept)) {
      throw new OutFolderRefused(
        `${out} is ${
          target === kept ? "" : "a folder that holds "
        }${what} (${kept}); name a folder of its own`,
      );
    }
  }
  for (const { path, what } of rules.read) {
    const read = await realPathOf(path);
    if (within(read, target) || within(target, read)) {
      throw new OutFolderRefused(
        `${out} is in ${what} (${read}), whose files are content; name a folder outside it`,
      );
    }
  }
  let info;
  try {
    info = await lstat(given);
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return target;
    throw error;
  }
  if (info.isSymbolicLink()) {
    throw new OutFolderRefused(`${out} is a symbolic link; name the folder it points to`);
  }
  if (!info.isDirectory()) throw new OutFolderRefused(`${out} is a file, not a folder`);
  const entries = await readdir(target);
  if (entries.length > 0 && !entries.includes(BUILD_MARKER) && !rules.force) {
    throw new OutFolderRefused(
      `${out} exists and is not a previous build (it has no ${BUILD_MARKER}); give --force to replace it, or name another folder`,
    );
  }
  return target;
}

/** A random name part for the staging and replaced folders. */
const randomPart = () => crypto.randomUUID().slice(0, 8);

/**
 * Starts writing a build of `target` (a path {@link checkOutFolder}
 * accepted): a staging folder `.<name>.building-<random>` beside it, on the
 * same file system, so the rename into place is one step. At
 * {@link StagedFolder.commit}, an existing target is first renamed aside
 * (`.<name>.replaced-<random>`, put back if the second rename fails) and
 * removed once the new build is in place.
 *
 * @example
 * ```ts
 * import { stageFolder } from "./out_folder.ts";
 * const staged = await stageFolder("/site/public");
 * try {
 *   await staged.write("api/content.json", "{}");
 *   await staged.commit();
 * } catch (error) {
 *   await staged.discard();
 *   throw error;
 * }
 * ```
 */
export async function stageFolder(target: string): Promise<StagedFolder> {
  const parent = dirname(target);
  const name = basename(target);
  await mkdir(parent, { recursive: true });
  const staging = join(parent, `.${name}.building-${randomPart()}`);
  await mkdir(staging);
  const made = new Set<string>([""]);
  const makeFolder = async (folder: string) => {
    if (made.has(folder)) return;
    await mkdir(join(staging, folder), { recursive: true });
    for (let at = folder; at !== "" && !made.has(at); at = at.replace(/\/?[^/]*$/, "")) {
      made.add(at);
    }
  };
  return {
    target,
    async write(path, bytes) {
      const segments = path.split("/");
      if (segments.some((s) => s === "" || s === "." || s === ".." || /[\\\0]/.test(s))) {
        throw new Error(`a build writes no file at ${JSON.stringify(path)}`);
      }
      await makeFolder(segments.slice(0, -1).join("/"));
      try {
        // `wx`: a path written twice is an error, never one file silently over another.
        await writeFile(join(staging, ...segments), bytes, { flag: "wx" });
      } catch (error) {
        if ((error as { code?: string }).code === "EEXIST") {
          throw new Error(`two files of the build have one path: ${path}`);
        }
        throw error;
      }
    },
    async commit() {
      await writeFile(
        join(staging, BUILD_MARKER),
        "Written by content-feed build: the next build replaces this folder whole.\n",
      );
      let aside: string | undefined;
      try {
        await lstat(target);
        aside = join(parent, `.${name}.replaced-${randomPart()}`);
        await rename(target, aside);
      } catch (error) {
        if ((error as { code?: string }).code !== "ENOENT") throw error;
      }
      try {
        await rename(staging, target);
      } catch (error) {
        if (aside) await rename(aside, target);
        throw error;
      }
      if (aside) await rm(aside, { recursive: true, force: true });
    },
    async discard() {
      await rm(staging, { recursive: true, force: true });
    },
  };
}
