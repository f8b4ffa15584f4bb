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
  const until = async (path: string) => {
    for (let tries = 0; tries < 200; tries++) {
      if (seen.includes(path)) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.fail(`no event for ${path}; seen ${JSON.stringify(seen)}`);
  };
  return { seen, errors, stop, until };
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
        await writeFile(join(root, "top.md"), "top");
        await watch.until("top.md");
        await writeFile(join(root, "docs/a/one.md"), "one, edited");
        await watch.until("docs/a/one.md");
        // A folder made later, then a file in it.
        await mkdir(join(root, "blog"));
        await watch.until("blog");
        await writeFile(join(root, "blog/new.md"), "new");
        await watch.until("blog/new.md");
        await writeFile(join(root, ".content-feed/journal.sqlite"), "state, again");
        await writeFile(join(root, "docs/a/two.md"), "two");
        await watch.until("docs/a/two.md");
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
        await writeFile(join(root, "site/page.md"), "page");
        await watch.until("site/page.md");
        await writeFile(join(root, "site/docs/doc.md"), "doc");
        await watch.until("site/docs/doc.md");
        await writeFile(join(root, "other/deep/x.md"), "x");
        await watch.until("other/deep/x.md");
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
        await rm(join(root, "a"), { recursive: true });
        await watch.until("a");
        await rename(join(root, "b"), join(root, "c"));
        await watch.until("c");
        await writeFile(join(root, "c/x.md"), "x");
        await watch.until("c/x.md");
        await mkdir(join(root, "a"));
        await watch.until("a");
        await writeFile(join(root, "a/y.md"), "y");
        await watch.until("a/y.md");
        assert.deepEqual(watch.errors, []);
      } finally {
        watch.stop();
      }
    });
  });
});
