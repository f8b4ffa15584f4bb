import type { ContentConfig } from "../config.ts";
import { fileSelector } from "../index/tree.ts";
import { PLUGINS } from "../plugins.ts";
import { entryInfo, type FoundFile, listFiles, readBytes } from "./fs.ts";
import { sha256Hex } from "./hash.ts";
import { isWarning, parseFile } from "./parse.ts";
import type { ParsedFile, Warning } from "./parsed_file.ts";

/** One load of the content folder: the files that parsed, and what went wrong. */
export interface Loaded {
  readonly files: ParsedFile[];
  readonly warnings: Warning[];
  /** How many files were read (not reused from the previous load). */
  readonly read: number;
  /** Whether anything differs from the previous load (a file read, added or removed). */
  readonly changed: boolean;
}

/** Reads content folders and remembers what it read, so a reload reads only what changed. */
export interface ContentLoader {
  /**
   * Lists every plugin folder and reads the files that are new or changed
   * since the last load; with `paths` (absolute, from a watcher), looks at
   * only those, falling back to the full listing for folders and links.
   */
  load(paths?: readonly string[]): Promise<Loaded>;
}

const CONCURRENCY = 32;

/**
 * Creates a loader for a configuration. A file is read again only when its
 * modification time or size changed; otherwise its parsed form is reused.
 *
 * @example
 * ```ts
 * import { createLoader } from "./loader.ts";
 * import { loadConfigFile } from "../load_config.ts";
 * const loader = createLoader(await loadConfigFile("content/services.yaml"));
 * const { files, warnings } = await loader.load();
 * ```
 */
export function createLoader(config: ContentConfig): ContentLoader {
  let cache = new Map<string, Entry>();
  let listingWarnings: Warning[] = [];
  const selectors = config.plugins.map((plugin) => ({
    plugin,
    folder: `${config.root}/${plugin.path}/`,
    select: fileSelector(PLUGINS[plugin.name], plugin),
  }));

  const finish = (next: Map<string, Entry>, listing: Warning[], read: number, changed: boolean) => {
    cache = next;
    listingWarnings = listing;
    const warnings = [...listing];
    const files: ParsedFile[] = [];
    for (const { result } of next.values()) {
      if (isWarning(result)) warnings.push(result);
      else files.push(result);
    }
    return { files, warnings, read, changed };
  };

  const full = async (): Promise<Loaded> => {
    const next = new Map<string, Entry>();
    const listing: Warning[] = [];
    const todo: Todo[] = [];
    const listed = await Promise.all(selectors.map(async ({ plugin, folder, select }) => {
      const found = await listFiles(
        config.root,
        folder.slice(0, -1),
        select,
        (path, reason) =>
          listing.push({ file: `${plugin.path}/${path}`, message: `${reason}; left out` }),
      );
      return { plugin, found };
    }));
    for (const { plugin, found } of listed) {
      for (const file of found) {
        const old = cache.get(file.abs);
        if (old && old.mtime === file.mtime && old.size === file.size) next.set(file.abs, old);
        else todo.push({ found: file, plugin: plugin.name, prefix: plugin.path });
      }
    }
    await readAll(todo, next);
    // A new listing warning (a bad link added) is a change too, so it gets logged.
    const key = (list: Warning[]) => list.map((w) => `${w.file}\n${w.message}`).join("\n");
    const changed = todo.length > 0 || next.size !== cache.size ||
      key(listing) !== key(listingWarnings);
    return finish(next, listing, todo.length, changed);
  };

  return {
    async load(paths) {
      if (!paths || cache.size === 0) return await full();
      // Only the named paths: a changed, added or removed file costs one stat and one read.
      const next = new Map(cache);
      const todo: Todo[] = [];
      let removed = false;
      for (const abs of new Set(paths)) {
        const owner = selectors.find((s) => abs.startsWith(s.folder));
        if (!owner) continue; // outside every plugin folder (services.yaml, other files)
        const info = await entryInfo(abs);
        if (info.kind === "folder" || info.kind === "link") return await full();
        const path = abs.slice(owner.folder.length);
        if (info.kind === "missing") {
          if (next.delete(abs)) removed = true;
          else if ([...next.keys()].some((key) => key.startsWith(`${abs}/`))) return await full();
          continue;
        }
        if (info.kind !== "file" || !owner.select(path)) continue;
        const old = next.get(abs);
        if (old && old.mtime === info.mtime && old.size === info.size) continue;
        todo.push({
          found: { path, abs, mtime: info.mtime, size: info.size },
          plugin: owner.plugin.name,
          prefix: owner.plugin.path,
        });
      }
      await readAll(todo, next);
      return finish(next, listingWarnings, todo.length, todo.length > 0 || removed);
    },
  };
}

interface Entry {
  mtime: number;
  size: number;
  result: ParsedFile | Warning;
}

interface Todo {
  found: FoundFile;
  plugin: string;
  prefix: string;
}

/** Reads, hashes and parses files, 32 at a time, into `next`. */
async function readAll(todo: readonly Todo[], next: Map<string, Entry>): Promise<void> {
  let cursor = 0;
  const worker = async () => {
    while (cursor < todo.length) {
      const { found, plugin, prefix } = todo[cursor++];
      const shown = `${prefix}/${found.path}`;
      let result: ParsedFile | Warning;
      let mtime = found.mtime;
      try {
        const bytes = await readBytes(found.abs);
        const checksum = await sha256Hex(bytes);
        result = parseFile(
          bytes,
          { plugin, path: found.path, checksum, mtime: found.mtime },
          shown,
        );
      } catch (error) {
        const code = (error as { code?: string }).code ?? "read error";
        result = { file: shown, message: `cannot be read (${code}); left out` };
        mtime = NaN; // never reused: a permission fix does not change the mtime
      }
      next.set(found.abs, { mtime, size: found.size, result });
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, todo.length) }, worker));
}
