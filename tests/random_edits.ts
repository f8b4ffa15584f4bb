// Seeded random edits of a site's files for the sync tests (SPEC 12): add,
// edit, delete, rename and draft on/off, each one a way an id enters,
// changes or leaves the feed. The caller re-indexes (`api.reload()`).
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { mulberry32 } from "../bench/site.ts";
import { LONG, md } from "./helpers.ts";

/** What one file holds. */
interface File {
  title: string;
  body: string;
  draft: boolean;
}

/** Seeded edits of the files under `root`, in `folders` (each a plugin's folder or below it). */
export interface RandomEdits {
  /** Writes `count` new files. */
  start(count: number): Promise<void>;
  /** One random edit (never leaving fewer than `min` files); returns what it did. */
  next(min?: number): Promise<string>;
  /** The paths of the files that exist. */
  readonly paths: readonly string[];
}

/**
 * Seeded edits of a site's files: `next()` adds, edits, deletes, renames or
 * turns draft on or off, the same sequence for the same seed.
 */
export function randomEdits(
  root: string,
  seed: number,
  folders: readonly string[] = ["docs", "docs/guide", "blog"],
): RandomEdits {
  const random = mulberry32(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const files = new Map<string, File>();
  let made = 0;
  const write = async (path: string) => {
    const file = files.get(path)!;
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(
      join(root, path),
      md({ title: file.title, date: "2026-01-02", tags: ["Sync"], draft: file.draft }, file.body),
    );
  };
  const add = async () => {
    const path = `${pick(folders)}/page-${++made}.md`;
    files.set(path, { title: `Page ${made}`, body: `${LONG} ${made}`, draft: false });
    await write(path);
    return `add ${path}`;
  };
  const edits: Record<string, (path: string) => Promise<string>> = {
    async edit(path) {
      files.get(path)!.body += ` Edited ${made++}.`;
      await write(path);
      return `edit ${path}`;
    },
    async delete(path) {
      files.delete(path);
      await rm(join(root, path));
      return `delete ${path}`;
    },
    async rename(path) {
      const next = path.replace(/\.md$/, `-r${++made}.md`);
      files.set(next, files.get(path)!);
      files.delete(path);
      await rename(join(root, path), join(root, next));
      return `rename ${path} → ${next}`;
    },
    async "draft on/off"(path) {
      const file = files.get(path)!;
      file.draft = !file.draft;
      await write(path);
      return `draft ${file.draft} ${path}`;
    },
  };
  return {
    async start(count) {
      for (let i = 0; i < count; i++) await add();
    },
    next(min = 4) {
      if (files.size < min || random() < 0.2) return add();
      const name = pick(Object.keys(edits));
      return edits[name](pick([...files.keys()]));
    },
    get paths() {
      return [...files.keys()];
    },
  };
}
