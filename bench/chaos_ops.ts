// Random file and folder operations on a content folder, for the
// convergence test and `deno task chaos`: files added, edited, removed and
// renamed; folders made, renamed, removed, replaced by a file; a whole plugin
// folder renamed away and back, deleted and re-created; a file replaced by a
// FIFO. After they stop, a live server must serve what a fresh start serves.
import { execFileSync } from "node:child_process";
import { mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { mulberry32 } from "./site.ts";

/** The plugin folders the operations work in. */
const PLUGINS = ["docs", "faq", "blog"];

/** A Markdown file long enough to be in the feed. */
function markdown(title: string): string {
  return `---\ntitle: "${title}"\n---\n${`Words for ${title} to index. `.repeat(8)}\n`;
}

/** Every folder and regular file under `folder` (relative, `/`-separated), folders with a trailing `/`. */
async function walk(folder: string, prefix = ""): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries) {
    const rel = `${prefix}${entry.name}`;
    if (entry.isDirectory()) {
      out.push(`${rel}/`, ...await walk(join(folder, entry.name), `${rel}/`));
    } // Regular files only: writing to a FIFO would wait for a reader.
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/** What one run of operations did. */
export interface ChaosReport {
  readonly operations: number;
  /** How many of each kind. */
  readonly kinds: Record<string, number>;
}

/**
 * Runs random operations on the plugin folders under `root` for `ms`
 * milliseconds, one every `pause` ms, seeded; with `operations`, stops
 * after that many (a test counts operations: a loaded machine makes fewer in
 * a given time). `fifos: false` leaves FIFOs out (a process whose Deno
 * watcher met one cannot end by itself).
 */
export async function runChaos(
  root: string,
  ms: number,
  options: { seed?: number; pause?: number; fifos?: boolean; operations?: number } = {},
): Promise<ChaosReport> {
  const random = mulberry32(options.seed ?? 7);
  const pick = <T>(list: readonly T[]): T | undefined =>
    list.length ? list[Math.floor(random() * list.length)] : undefined;
  const kinds: Record<string, number> = {};
  const away = `${root}.away`;
  let operations = 0;
  const end = Date.now() + ms;
  const most = options.operations ?? Infinity;
  for (let i = 0; Date.now() < end && operations < most; i++) {
    const plugin = pick(PLUGINS)!;
    const base = join(root, plugin);
    const paths = await walk(base);
    const files = paths.filter((p) => p.endsWith(".md"));
    const folders = paths.filter((p) => p.endsWith("/")).map((p) => p.slice(0, -1));
    const roll = random();
    let kind: string;
    try {
      if (roll < 0.25) {
        kind = "add file";
        const folder = random() < 0.5 ? "" : `${pick(folders) ?? ""}`;
        await mkdir(join(base, folder), { recursive: true });
        await writeFile(join(base, folder, `n${i}.md`), markdown(`New ${i}`));
      } else if (roll < 0.4) {
        kind = "edit file";
        const file = pick(files);
        if (file) await writeFile(join(base, file), markdown(`Edited ${i}`));
      } else if (roll < 0.5) {
        kind = "remove file";
        const file = pick(files);
        if (file) await rm(join(base, file), { force: true });
      } else if (roll < 0.6) {
        kind = "rename file";
        const file = pick(files);
        if (file) await rename(join(base, file), join(base, `r${i}.md`));
      } else if (roll < 0.7) {
        kind = "make folder";
        await mkdir(join(base, `f${i}/deeper`), { recursive: true });
        await writeFile(join(base, `f${i}.md`), markdown(`Folder ${i}`));
        await writeFile(join(base, `f${i}/child.md`), markdown(`Child ${i}`));
        await writeFile(join(base, `f${i}/deeper/leaf.md`), markdown(`Leaf ${i}`));
      } else if (roll < 0.77) {
        kind = "rename folder";
        const folder = pick(folders);
        if (folder) await rename(join(base, folder), join(base, `g${i}`));
      } else if (roll < 0.82) {
        kind = "remove folder";
        const folder = pick(folders);
        if (folder) await rm(join(base, folder), { recursive: true, force: true });
      } else if (roll < 0.86) {
        kind = "folder replaced by a file";
        const folder = pick(folders);
        if (folder) {
          await rm(join(base, folder), { recursive: true, force: true });
          await writeFile(join(base, `${folder}.md`), markdown(`Was a folder ${i}`));
          await writeFile(join(base, folder), "a file where a folder was\n");
        }
      } else if (roll < 0.91) {
        kind = "plugin folder away and back";
        await rm(away, { recursive: true, force: true });
        if (await exists(base)) {
          await rename(base, away);
          await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 50)));
          await rename(away, base);
        }
      } else if (roll < 0.95) {
        kind = "plugin folder deleted and re-created";
        await rm(base, { recursive: true, force: true });
        await mkdir(join(base, "again"), { recursive: true });
        await writeFile(join(base, `again.md`), markdown(`Again ${i}`));
        await writeFile(join(base, `again/one.md`), markdown(`One ${i}`));
      } else if (options.fifos !== false && roll < 0.97) {
        kind = "file replaced by a FIFO";
        const file = pick(files);
        if (file) {
          await rm(join(base, file), { force: true });
          execFileSync("mkfifo", [join(base, file)]);
        }
      } else {
        kind = "plugin folder away";
        await rm(away, { recursive: true, force: true });
        if (await exists(base)) await rename(base, away);
      }
    } catch (error) {
      // Two operations can race for the same path (a rename of what was just removed): fine.
      kind = `failed: ${(error as { code?: string }).code ?? error}`;
    }
    kinds[kind] = (kinds[kind] ?? 0) + 1;
    operations++;
    await new Promise((resolve) => setTimeout(resolve, options.pause ?? 10));
  }
  // The hardest endings last, with nothing after them to set things right:
  // a plugin folder renamed away and back and then edited inside, another
  // renamed away for good.
  await rm(away, { recursive: true, force: true });
  const [back, gone] = [PLUGINS[0], PLUGINS[1]].map((p) => join(root, p));
  if (await exists(back)) {
    await rename(back, away);
    await rename(away, back);
    await writeFile(join(back, "after-return.md"), markdown("After the return"));
  }
  if (await exists(gone)) await rename(gone, away);
  kinds["finale"] = 1;
  return { operations, kinds };
}

/** Removes what {@link runChaos} moved out of `root`. */
export async function cleanChaos(root: string): Promise<void> {
  await rm(`${root}.away`, { recursive: true, force: true });
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** A feed document with `generated` blanked, for comparing a live server with a fresh one. */
export function comparable(feed: string): string {
  return feed.replace(/"generated":"[^"]*"/, '"generated":"…"');
}
