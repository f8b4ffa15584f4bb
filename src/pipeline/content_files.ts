import type { ContentConfig } from "../config/types.ts";
import type { PageContext } from "../fields/page.ts";
import { type IndexedFile, indexFile, withNames } from "../fields/indexed_file.ts";
import type { NameSlug } from "../fields/names.ts";
import type { ReadWorkerData } from "./read_worker.ts";
import { type CommitDates, type GitDates, readGitDates } from "../source/git.ts";
import { createLoader, type Loaded } from "../source/loader.ts";

/** A loader of a configuration's content, its fields derived: the pipeline's source (`pipeline.ts`). */
export interface ContentFilesLoader {
  /** Loads what changed (see `createLoader`), with commit dates where the content is in git. */
  load(paths?: readonly string[], reread?: boolean): Promise<Loaded<IndexedFile>>;
  /** Whether a folder of the last listing changed since. */
  foldersChanged(): boolean;
}

/** How {@link createContentFilesLoader} keeps files. */
export interface ContentFilesOptions {
  /** Keep each file's body (a snapshot) or let it go (a server, which reads it again). */
  readonly keepBody: boolean;
  /** Shares author and tag objects between files. */
  readonly shareNames?: (list: readonly NameSlug[]) => readonly NameSlug[];
  /** Told how many files of a load are read so far, and of how many. */
  readonly progress?: (read: number, total: number) => void;
  /** What each plugin's generator and variant say of its files' pages (SPEC 16), by plugin name. */
  readonly pages?: Readonly<Record<string, PageContext>>;
}

/**
 * A loader that derives each file's fields as it reads it (on this thread or
 * the start-up helper's), with the plugin's authors file and the file's
 * commit dates (SPEC 4): one `git log` over the tree before a full load, and
 * over the named files before a load of a few (config `git: false` turns it
 * off). A file whose dates changed is derived again though its bytes did not
 * (a commit, an amend). A shallow clone gives no first-commit dates, and one
 * warning.
 *
 * @example
 * ```ts
 * import { createContentFilesLoader } from "./content_files.ts";
 * import { loadConfigFile } from "../config/load.ts";
 * const loader = createContentFilesLoader(await loadConfigFile("content/services.yaml"), {
 *   keepBody: false,
 * });
 * const { files } = await loader.load();
 * ```
 */
export function createContentFilesLoader(
  config: ContentConfig,
  options: ContentFilesOptions,
): ContentFilesLoader {
  const { keepBody, shareNames, progress, pages } = options;
  const authorNames = Object.fromEntries(
    config.plugins.flatMap((p) => p.authorNames ? [[p.name, p.authorNames]] : []),
  );
  let commits = new Map<string, CommitDates>();
  /**
   * Changes whenever some file's commit dates did; a file whose dates did not
   * keeps its very `CommitDates` object, so the loader compares by identity.
   */
  let datesVersion = 0;
  /** The digest of the whole tree's dates in `commits`, while nothing else changed them. */
  let treeDigest: string | undefined;
  let shallow = false;
  let gitDates: Promise<void> | undefined;
  const loader = createLoader<IndexedFile>(config, {
    prepare: (parsed, shown, extra) =>
      indexFile(parsed, shown, {
        keepBody,
        shareNames,
        context: {
          authorNames: authorNames[parsed.plugin],
          git: extra as CommitDates | undefined,
          ...pages?.[parsed.plugin],
        },
      }),
    extraFor: (shown) => commits.get(shown),
    // A commit, amend, rebase or checkout changes a file's dates, not its
    // bytes: such a file is derived again (SPEC 10, convergence).
    extraVersion: () => datesVersion,
    beforeRead: () => gitDates,
    progress,
    helper: {
      // Beside this module: `.ts` in the source, `.js` in the npm package's build.
      url: new URL(
        `./read_worker.${import.meta.url.endsWith(".ts") ? "ts" : "js"}`,
        import.meta.url,
      ),
      data: { keepBody, authorNames, pages } satisfies ReadWorkerData,
      adopt: (file) => withNames(file, shareNames),
    },
  });
  /** Takes the named files' dates; one git no longer knows (untracked since) loses its dates. */
  const updateNamed = (named: readonly string[], dates: GitDates | undefined) => {
    for (const path of named) {
      const date = dates?.files.get(path);
      const old = commits.get(path);
      if (old === undefined ? date === undefined : date !== undefined && sameDates(old, date)) {
        continue;
      }
      if (date) commits.set(path, date);
      else commits.delete(path);
      datesVersion++;
      treeDigest = undefined;
    }
  };
  /** Takes the whole tree's dates, keeping the object of each file whose dates did not change. */
  const updateTree = (dates: GitDates | undefined) => {
    const next = new Map<string, CommitDates>();
    for (const [path, date] of dates?.files ?? []) {
      const old = commits.get(path);
      next.set(path, old && sameDates(old, date) ? old : date);
    }
    commits = next;
    datesVersion++;
    treeDigest = dates?.digest;
  };
  const root = `${config.root}/`;
  return {
    foldersChanged: () => loader.foldersChanged(),
    async load(paths, reread) {
      if (config.git) {
        // git runs while the loader lists the folders; files are read once it has answered.
        const named = paths?.filter((p) => p.startsWith(root)).map((p) => p.slice(root.length));
        gitDates = readGitDates(config.root, named).then((dates) => {
          if (named) updateNamed(named, dates);
          else if (dates?.digest !== treeDigest || (!dates && commits.size > 0)) updateTree(dates);
          shallow = dates?.shallow ?? false;
        });
      }
      const loaded = await loader.load(paths, reread);
      if (!shallow) return loaded;
      const warning = {
        file: ".",
        informational: true,
        message:
          "the content's git clone is shallow, so first-commit dates are unknown: a file without a date falls back to its modification time",
      };
      return { ...loaded, warnings: [warning, ...loaded.warnings] };
    },
  };
}

/** Whether two files' commit dates are the same. */
function sameDates(a: CommitDates, b: CommitDates): boolean {
  return a.first === b.first && a.last === b.last;
}
