// Eleventy's JSON data files (SPEC 16.2): read from the content folders,
// where they sit beside the templates they apply to. Only `.json` files are
// read; JavaScript data files are never run.
import { readdir, readFile } from "node:fs/promises";

/** The most data files one folder tree is read for (a content tree, not a node_modules). */
const MAX_FILES = 10_000;

/**
 * The `.json` files under `folder` (paths relative to it, `/`-separated)
 * with their texts: folders whose names start with `.` or `_`, and
 * `node_modules`, are not entered; an unreadable file or folder is passed
 * over.
 *
 * @example
 * ```ts
 * import { readJsonFiles } from "./data_files.ts";
 * const files = await readJsonFiles("site/src");
 * files.map((file) => file.path); // ["posts/posts.json", "notes/notes.11tydata.json"]
 * ```
 */
export async function readJsonFiles(
  folder: string,
): Promise<{ readonly path: string; readonly text: string }[]> {
  const found: { path: string; text: string }[] = [];
  const walk = async (relative: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(relative ? `${folder}/${relative}` : folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (found.length >= MAX_FILES) return;
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!/^[._]/.test(entry.name) && entry.name !== "node_modules") await walk(path);
      } else if (entry.isFile() && entry.name.endsWith(".json")) {
        try {
          found.push({ path, text: await readFile(`${folder}/${path}`, "utf8") });
        } catch {
          // An unreadable data file is as if it were not there.
        }
      }
    }
  };
  await walk("");
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
