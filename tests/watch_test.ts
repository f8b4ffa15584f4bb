// The content watcher (`src/source/watch.ts`) leaves the folders it is told
// to out of the watch: under Deno a recursive watcher opens and closes each
// file it has an event for, which drops the POSIX locks the process holds on
// it (SQLite's journal lock in the state folder). Everything else under the
// root is still seen, folders made, removed and renamed later included.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, realpath, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { watchFolder } from "../src/source/watch.ts";

/** A watch of `root` whose events are kept, and a wait for one that matches. */
function watched(root: string, unwatched: string[]) {
  const seen: (string | undefined)[] = [];
  const errors: unknown[] = [];
  const stop = watchFolder(
    root,
    (path) => seen.push(path),
    (error) => errors.push(error),
    unwatched,
  );
  assert.ok(stop, "this runtime watches");
  /** Waits for an event naming `path` among those from the `from`th on. */
  const until = async (path: string, from = 0) => {
    for (let tries = 0; tries < 200; tries++) {
      if (seen.indexOf(path, from) !== -1) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.fail(`no event for ${path}; seen ${JSON.stringify(seen)}`);
  };
  /** Does `change` and waits for an event naming `path` after it. */
  const after = async (change: () => Promise<unknown>, path: string) => {
    const from = seen.length;
    await change();
    await until(path, from);
  };
  /** Writes a file (relative to the root) and waits for its event. */
  const wrote = (path: string, text = path) => after(() => writeFile(join(root, path), text), path);
  return { seen, errors, stop, until, after, wrote };
}

/** Runs `fn` in a fresh folder (its real path: events name paths under it), always removed. */
async function inFolder(fn: (root: string) => Promise<void>): Promise<void> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "content-feed-watch-")));
  try {
    await fn(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const inside = (folder: string) => (path: string | undefined) =>
  path !== undefined && (path === folder || path.startsWith(`${folder}/`));

describe("the content watcher leaves its unwatched folders out (Deno's watcher drops file locks)", () => {
  it("no event from a file in the state folder; one from every other change, a new folder's too", async () => {
    await inFolder(async (root) => {
      await mkdir(join(root, ".content-feed"));
      await mkdir(join(root, "docs/a"), { recursive: true });
      await writeFile(join(root, "docs/a/one.md"), "one");
      const watch = watched(root, [join(root, ".content-feed")]);
      try {
        // Written before the sentinels: one watcher of everything would name it first.
        await writeFile(join(root, ".content-feed/journal.sqlite"), "state");
        await watch.wrote("top.md");
        await watch.wrote("docs/a/one.md", "one, edited");
        // A folder made later, then a file in it.
        await watch.after(() => mkdir(join(root, "blog")), "blog");
        await watch.wrote("blog/new.md");
        await writeFile(join(root, ".content-feed/journal.sqlite"), "state, again");
        await watch.wrote("docs/a/two.md");
        assert.deepEqual(watch.seen.filter(inside(".content-feed/journal.sqlite")), []);
        assert.deepEqual(watch.errors, []);
      } finally {
        watch.stop();
      }
    });
  });

  it("a state folder deeper in the content: the folders on its way are watched one level deep", async () => {
    await inFolder(async (root) => {
      await mkdir(join(root, "site/.state"), { recursive: true });
      await mkdir(join(root, "site/docs"), { recursive: true });
      await mkdir(join(root, "other/deep"), { recursive: true });
      const watch = watched(root, [join(root, "site/.state")]);
      try {
        await writeFile(join(root, "site/.state/journal.sqlite"), "state");
        await watch.wrote("site/page.md");
        await watch.wrote("site/docs/doc.md");
        await watch.wrote("other/deep/x.md");
        assert.deepEqual(watch.seen.filter(inside("site/.state")), []);
      } finally {
        watch.stop();
      }
    });
  });

  it("a folder removed, one renamed, one made in its place: changes in each are seen", async () => {
    await inFolder(async (root) => {
      await mkdir(join(root, ".content-feed"));
      await mkdir(join(root, "a"));
      await mkdir(join(root, "b"));
      const watch = watched(root, [join(root, ".content-feed")]);
      try {
        await watch.after(() => rm(join(root, "a"), { recursive: true }), "a");
        await watch.after(() => rename(join(root, "b"), join(root, "c")), "c");
        await watch.wrote("c/x.md");
        // The new folder's own event: its watcher is in place once it came.
        await watch.after(() => mkdir(join(root, "a")), "a");
        await watch.wrote("a/y.md");
        assert.deepEqual(watch.errors, []);
      } finally {
        watch.stop();
      }
    });
  });
});
