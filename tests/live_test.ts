// SPEC 10: a change to the content is visible within 2 seconds, with no
// restart, by watching (or polling where watching is unavailable).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { appendFile, chmod, mkdir, mkdtemp, rename, rm, utimes, writeFile } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import process from "node:process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createContentApi } from "../mod.ts";
import { watchGitHead } from "../src/source/git_head.ts";
import { createGitTracker, execGit, execGitToFile } from "../src/source/git.ts";
import { historyRanges, packedObjects } from "../src/source/history_parts.ts";
import {
  ALL_PLUGINS,
  configFor,
  eventually,
  git,
  HAS_GIT,
  LONG,
  md,
  memoryLogger,
  removeSite,
  serviceOn,
  site,
  type TestSite,
  writeSite,
} from "./helpers.ts";

async function ids(s: TestSite): Promise<string[]> {
  const { body } = await s.json("/api/content.json");
  return body.data.map((item: { id: string }) => item.id);
}

for (const mode of [true, "poll"] as const) {
  describe(`live content (${mode === true ? "watching" : "polling"})`, () => {
    it("shows an added, edited, renamed (editor-style) and removed file within 2 s", async () => {
      const s = await site({ "docs/a.md": md({ title: "A" }, LONG) }, {
        watch: mode,
        pollInterval: 200,
      });
      try {
        assert.deepEqual(await ids(s), ["docs_doc_a"]);
        const before = s.api.index;

        await writeFile(join(s.root, "docs/b.md"), md({ title: "B" }, LONG));
        await eventually("an added file", async () => (await ids(s)).includes("docs_doc_b"));
        assert.notEqual(s.api.index, before);

        await writeFile(join(s.root, "docs/a.md"), md({ title: "A, edited" }, LONG));
        await eventually("an edit", async () => {
          const { body } = await s.json("/docs/a.json");
          return body.title === "A, edited";
        });

        // Editors write a temporary file and rename it over the original.
        const tmp = join(s.root, "docs/.a.md.swp");
        await writeFile(tmp, md({ title: "A, saved by rename" }, LONG));
        await rename(tmp, join(s.root, "docs/a.md"));
        await eventually("a rename-over save", async () => {
          const { body } = await s.json("/docs/a.json");
          return body.title === "A, saved by rename";
        });

        await rename(join(s.root, "docs/b.md"), join(s.root, "docs/c.md"));
        await eventually("a renamed file", async () => {
          const now = await ids(s);
          return now.includes("docs_doc_c") && !now.includes("docs_doc_b");
        });

        await rm(join(s.root, "docs/c.md"));
        await eventually("a removed file", async () => !(await ids(s)).includes("docs_doc_c"));
        assert.equal((await s.request("/docs/c.json")).status, 404);
      } finally {
        s.api.close();
        await s.close();
      }
    });
  });
}

describe("a change while the first index is built", () => {
  it("is served within 2 s of the first index: a listing catches up once the watch has begun", async () => {
    const root = await writeSite({
      "services.yaml": ALL_PLUGINS,
      "docs/a.md": md({ title: "A" }, LONG),
      "docs/b.md": md({ title: "B" }, LONG),
    });
    // Written an hour ago: a file read within 2 s of a change is read again later whatever happens.
    const then = Date.now() / 1000 - 3600;
    for (const file of ["docs/a.md", "docs/b.md"]) await utimes(join(root, file), then, then);
    let edited = false;
    // The clock is read as the index is built, after the files were read: the edit comes then,
    // in place (the same file, its folder's time unchanged), and no relisting comes for an hour.
    const s = await serviceOn(root, {
      watch: true,
      relistInterval: 3_600_000,
      now: () => {
        if (!edited) {
          edited = true;
          writeFileSync(join(root, "docs/a.md"), md({ title: "A, edited while it loaded" }, LONG));
        }
        return Date.UTC(2026, 10, 21, 9, 15, 2);
      },
    });
    try {
      assert.ok(edited);
      // The feed, which reads no file (an item's own route reads its file, and would find it
      // changed by itself).
      await eventually("an edit made while the first index was built", async () => {
        const { body } = await s.json("/api/content.json");
        return body.data.some((item: { title: string }) =>
          item.title === "A, edited while it loaded"
        );
      });
    } finally {
      await s.close();
      await removeSite(root);
    }
  });
});

describe("reloading", () => {
  it("re-reads only the changed file and keeps the index when nothing changed", async () => {
    const s = await site({
      "docs/a.md": md({ title: "A" }, LONG),
      "docs/b.md": md({ title: "B" }, LONG),
    });
    try {
      const first = s.api.index;
      const etag = (await s.request("/api/content.json")).headers.get("etag");
      assert.equal(await s.api.reload(), first, "no change: the same index, the same ETag");
      assert.equal((await s.request("/api/content.json")).headers.get("etag"), etag);

      const b = s.api.index.byPath.get("docs/b")!;
      await writeFile(join(s.root, "docs/a.md"), md({ title: "A2" }, LONG));
      const next = await s.api.reload();
      assert.notEqual(next, first);
      assert.equal(next.byPath.get("docs/a")!.title, "A2");
      // b did not change: the new index keeps b's very item object (a re-index rebuilds what changed).
      assert.equal(next.byPath.get("docs/b"), b);
      assert.notEqual((await s.request("/api/content.json")).headers.get("etag"), etag);
    } finally {
      await s.close();
    }
  });

  it("never fails a request while content changes under it", async () => {
    const s = await site({ "docs/a.md": md({ title: "A" }, LONG) }, { watch: true });
    try {
      const first = s.api.index;
      const indexes = new Set([first]);
      let stop = false;
      const writer = (async () => {
        for (let i = 0; !stop; i++) {
          await writeFile(join(s.root, `docs/n${i % 20}.md`), md({ title: `N${i}` }, LONG));
          if (i % 3 === 0) await rm(join(s.root, `docs/n${(i + 7) % 20}.md`), { force: true });
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const statuses = new Map<number, number>();
      // Rounds of requests until the index was swapped under them twice and 300 rounds ran
      // (counted, not timed); the deadline only bounds the wait for the swaps.
      const deadline = Date.now() + 30_000;
      for (let round = 0; round < 300 || (indexes.size <= 2 && Date.now() < deadline); round++) {
        const responses = await Promise.all([
          s.request("/api/content.json"),
          s.request("/api/content.json?limit=2&page=2"),
          s.request("/docs/a.json"),
        ]);
        for (const r of responses) {
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          JSON.parse(await r.text()); // every body is complete JSON
        }
        indexes.add(s.api.index);
        // Cached answers resolve without a macrotask: yield, or the writer and watcher never run.
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      stop = true;
      await writer;
      assert.deepEqual([...statuses.keys()], [200]);
      // The content did change under the requests: the index was swapped while they ran.
      assert.ok(indexes.size > 2, `only ${indexes.size - 1} new indexes while requests ran`);
    } finally {
      s.api.close();
      await s.close();
    }
  });
});

describe("reloading only named paths (what the watcher passes)", () => {
  it("reads an edited or added file, drops a removed one, and lists a new folder", async () => {
    const s = await site({
      "docs/a.md": md({ title: "A" }, LONG),
      "docs/b.md": md({ title: "B" }, LONG),
    });
    try {
      const abs = (path: string) => join(s.root, path);
      await writeFile(abs("docs/a.md"), md({ title: "A2" }, LONG));
      await writeFile(abs("docs/c.md"), md({ title: "C" }, LONG));
      // b.md is edited too, but not named: a named reload does not look at it.
      await writeFile(abs("docs/b.md"), md({ title: "B2, longer" }, LONG));
      let index = await s.api.reload([abs("docs/a.md"), abs("docs/c.md"), abs("services.yaml")]);
      assert.equal(index.byPath.get("docs/a")!.title, "A2");
      assert.equal(index.byPath.get("docs/c")!.title, "C");
      assert.equal(index.byPath.get("docs/b")!.title, "B");

      await rm(abs("docs/c.md"));
      index = await s.api.reload([abs("docs/c.md")]);
      assert.equal(index.byPath.get("docs/c"), undefined);

      await mkdir(abs("docs/a"));
      await writeFile(abs("docs/a/deep.md"), md({ title: "Deep" }, LONG));
      index = await s.api.reload([abs("docs/a")]); // a folder: the full listing
      assert.equal(index.byPath.get("docs/a/deep")!.title, "Deep");
      assert.equal(index.byPath.get("docs/b")!.title, "B2, longer");
    } finally {
      await s.close();
    }
  });
});

/** A bound on waiting for git changes, not a measure: the assertions are on the values. */
const GIT_DEADLINE_MS = 10_000;

/** Waits until `check` holds, or fails naming `what` after {@link GIT_DEADLINE_MS}. */
async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  const start = Date.now();
  while (Date.now() - start < GIT_DEADLINE_MS) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`${what}: not seen within ${GIT_DEADLINE_MS} ms`);
}

/**
 * A folder whose content root is its `site/` folder, in a repository of the
 * whole folder (the usual layout: `.git` beside the content root, not in
 * it) or, `inside`, of `site/` only. One commit, dated 2020-01-02.
 */
async function repository(inside = false): Promise<string> {
  const top = await writeSite({
    "README.md": "The repository's own file, outside the content root.\n",
    "site/services.yaml": configFor(["docs", "api", "sitemap"], "https://example.com"),
    "site/docs/a.md": md({ title: "A" }, LONG),
    "site/docs/b.md": md({ title: "B" }, LONG),
    "site/notes.txt": "not content\n",
  });
  const repo = inside ? join(top, "site") : top;
  git(repo, ["init", "-q"]);
  git(repo, ["add", "."]);
  git(repo, ["commit", "-qm", "one"], "2020-01-02T10:00:00Z");
  return top;
}

/** Asserts that a serving site's feed is what a fresh start on its files serves. */
async function assertAsFresh(s: TestSite, top: string): Promise<void> {
  const fresh = await createContentApi({
    config: join(top, "site/services.yaml"),
    logger: memoryLogger(),
  });
  const feed = async (fetch: (r: Request) => Promise<Response>) =>
    (await (await fetch(new Request("http://localhost:8000/api/content.json"))).json()).data;
  try {
    assert.deepEqual(await feed(s.api.fetch), await feed(fresh.fetch));
  } finally {
    fresh.close();
  }
}

describe("git changes are content changes (SPEC 4, 10)", () => {
  const variants = [[true, false], [true, true], ["poll", false]] as const;
  for (const [mode, inside] of variants) {
    const how = `${mode === true ? "watching" : "polling"}, .git ${
      inside ? "in" : "beside"
    } the root`;
    it(`${how}: a dirty file committed, an amend, a checkout and a rebase show as an edit does; other files keep their items`, async (t) => {
      if (!HAS_GIT) return t.skip("no git here");
      const top = await repository(inside);
      const repo = inside ? join(top, "site") : top;
      const s = await serviceOn(join(top, "site"), { watch: mode, pollInterval: 200 });
      try {
        const lastUpdate = async (uri: string) => {
          const { body } = await s.json("/api/content.json");
          return body.data.find((item: { uri: string }) => item.uri === uri)?.last_update;
        };
        const shows = (what: string, date: string) =>
          until(`${what} (a's last_update ${date})`, async () => (await lastUpdate("a")) === date);
        assert.equal(await lastUpdate("a"), "2020-01-02");

        // Changed since its commit: its modification time (today).
        await appendFile(join(top, "site/docs/a.md"), " More.");
        await shows("an append", new Date().toISOString().slice(0, 10));
        const b = s.api.index.byPath.get("docs/b");

        git(repo, ["commit", "-qam", "two"], "2021-06-07T10:00:00Z");
        await shows("the commit of the dirty file", "2021-06-07");
        // The commits touched a.md only: b was not derived again (the very same item).
        assert.equal(s.api.index.byPath.get("docs/b"), b);

        git(repo, ["commit", "-q", "--amend", "--no-edit"], "2022-08-09T10:00:00Z");
        await shows("an amend (no file changed)", "2022-08-09");
        assert.equal(s.api.index.byPath.get("docs/b"), b);

        const main = git(repo, ["rev-parse", "--abbrev-ref", "HEAD"]).trim();
        git(repo, ["checkout", "-q", "-b", "old", "HEAD~1"]);
        await shows("a checkout of the first commit", "2020-01-02");
        assert.equal(s.api.index.byPath.get("docs/b"), b);
        const a = s.api.index.byPath.get("docs/a");

        // A commit that touches no served file, then one of b: a stays as it is.
        await appendFile(join(top, "README.md"), "More.\n");
        await appendFile(join(top, "site/notes.txt"), "More.\n");
        git(repo, ["commit", "-qam", "three"], "2023-01-01T10:00:00Z");
        await appendFile(join(top, "site/docs/b.md"), " More.");
        git(repo, ["commit", "-qam", "four"], "2024-02-03T10:00:00Z");
        await until("a commit of b", async () => (await lastUpdate("b")) === "2024-02-03");
        assert.equal(s.api.index.byPath.get("docs/a"), a);

        // A rebase onto the amended commit: a's bytes change back, b's do not, but b's
        // last commit is a new one (committed again, on 2025-05-05).
        git(repo, ["rebase", "-q", main], "2025-05-05T10:00:00Z");
        await shows("a rebase", "2022-08-09");
        await until("b's rebased commit", async () => (await lastUpdate("b")) === "2025-05-05");

        await assertAsFresh(s, top);
      } finally {
        await s.close();
        await removeSite(top);
      }
    });
  }

  it("a change to git's index alone (git rm --cached, then git add) shows as an edit does", async (t) => {
    if (!HAS_GIT) return t.skip("no git here");
    const top = await repository();
    // Nothing but the index changes: no content file written, HEAD where it was. The periodic
    // listing, which would also see it, is out of the way.
    const s = await serviceOn(join(top, "site"), { watch: true, relistInterval: 3_600_000 });
    try {
      const lastUpdate = async (uri: string) => {
        const { body } = await s.json("/api/content.json");
        return body.data.find((item: { uri: string }) => item.uri === uri)?.last_update;
      };
      assert.equal(await lastUpdate("a"), "2020-01-02");
      // Its time a day of its own: changed in the index, it is dated by it.
      const then = new Date("2023-03-03T12:00:00Z");
      await utimes(join(top, "site/docs/a.md"), then, then);
      git(top, ["rm", "-q", "--cached", "site/docs/a.md"]);
      await until(
        "a deletion staged: dated by its time",
        async () => (await lastUpdate("a")) === "2023-03-03",
      );
      // Added back: the index as HEAD has it, the commit's date again.
      git(top, ["add", "site/docs/a.md"]);
      await until("added back", async () => (await lastUpdate("a")) === "2020-01-02");
      git(top, ["rm", "-q", "--cached", "site/docs/a.md"]);
      await until("staged again", async () => (await lastUpdate("a")) === "2023-03-03");
      await assertAsFresh(s, top);
    } finally {
      await s.close();
      await removeSite(top);
    }
  });

  it("watchGitHead calls for each commit; the git tracker names the files under the root that the new commits touched, and only those", async (t) => {
    if (!HAS_GIT) return t.skip("no git here");
    const top = await repository();
    const root = join(top, "site");
    let calls = 0;
    let ready: (watching: boolean) => void = () => {};
    const started = new Promise<boolean>((resolve) => ready = resolve);
    const stop = watchGitHead(root, () => calls++, { onReady: ready });
    const tracker = createGitTracker(root);
    const next = async (what: string) => {
      const count = calls;
      await until(what, () => calls > count);
      const processes = tracker.processes;
      const { changed } = await tracker.refresh([]);
      return {
        changed: changed === "all" ? "all" : [...changed].sort(),
        git: tracker.processes - processes,
      };
    };
    try {
      assert.equal(await started, true);
      await tracker.refresh();
      // A commit outside the root touches nothing under it.
      await appendFile(join(top, "README.md"), "More.\n");
      git(top, ["commit", "-qam", "outside"], "2021-01-01T10:00:00Z");
      assert.deepEqual((await next("a commit outside the root")).changed, []);
      await appendFile(join(root, "notes.txt"), "More.\n");
      git(top, ["commit", "-qam", "notes"], "2021-01-02T10:00:00Z");
      const notes = await next("a commit of notes.txt");
      assert.deepEqual(notes.changed, ["notes.txt"]);
      assert.equal(notes.git, 3, "HEAD, the commits since, and the work tree's changes");
      assert.equal(tracker.dates("notes.txt")?.last, Date.parse("2021-01-02T10:00:00Z"));

      // An amend drops the commit the tracker read: the history is read again.
      git(top, ["commit", "-q", "--amend", "--no-edit"], "2021-01-03T10:00:00Z");
      assert.equal((await next("an amend")).changed, "all");
      assert.equal(tracker.dates("notes.txt")?.last, Date.parse("2021-01-03T10:00:00Z"));

      await appendFile(join(root, "docs/a.md"), " More.");
      await appendFile(join(root, "docs/b.md"), " More.");
      git(top, ["commit", "-qam", "both"], "2021-01-04T10:00:00Z");
      assert.deepEqual((await next("a commit of two files")).changed, ["docs/a.md", "docs/b.md"]);

      // However many files, one log of the commits since.
      for (let i = 0; i < 201; i++) await writeFile(join(root, `docs/n${i}.md`), `${i}\n`);
      git(top, ["add", "."]);
      git(top, ["commit", "-qm", "many"], "2021-01-05T10:00:00Z");
      const many = await next("a commit of 201 files");
      assert.equal((many.changed as string[]).length, 201);
      assert.equal(many.git, 3);
    } finally {
      stop();
      await removeSite(top);
    }
  });

  it("a large repository's history is read in parts, a git process each, at once, and dates every file as one log does, across merges", async (t) => {
    if (!HAS_GIT) return t.skip("no git here");
    const top = await repository();
    const root = join(top, "site");
    try {
      // A history with two branches merged twice, their commits' dates interleaved, so that
      // cuts land on either branch; some files touched on both (merged keeping main's text).
      // Each commit adds a file of its own too: a commit no part read leaves one undated.
      let day = 10;
      const files = ["docs/a.md", "docs/b.md", "notes.txt"];
      const commit = async (file: string, message: string) => {
        await appendFile(join(root, file), ` ${message}.`);
        const own = `own/${message.replace(" ", "-")}.txt`;
        await mkdir(join(root, "own"), { recursive: true });
        await writeFile(join(root, own), `${message}\n`);
        files.push(own);
        git(top, ["add", "-A"]);
        git(top, ["commit", "-qm", message], `2020-02-${day++}T10:00:00Z`);
      };
      git(top, ["checkout", "-qb", "side"]);
      await commit("docs/a.md", "side one");
      git(top, ["checkout", "-q", "-"]);
      await commit("docs/b.md", "main one");
      git(top, ["checkout", "-q", "side"]);
      await commit("docs/b.md", "side two");
      await commit("notes.txt", "side three");
      git(top, ["checkout", "-q", "-"]);
      await commit("docs/a.md", "main two");
      git(top, ["merge", "-q", "--no-edit", "-s", "ours", "side"], `2020-02-${day++}T10:00:00Z`);
      git(top, ["checkout", "-q", "side"]);
      await commit("docs/a.md", "side four");
      git(top, ["checkout", "-q", "-"]);
      await commit("notes.txt", "main three");
      git(top, ["merge", "-q", "--no-edit", "-s", "ours", "side"], `2020-02-${day++}T10:00:00Z`);
      await commit("docs/b.md", "main four");
      const commits = git(top, ["log", "--format=%H"]).trim().split("\n");
      assert.equal(commits.length, 11);
      // A branch HEAD does not reach, dated later: no part reads it.
      git(top, ["checkout", "-qb", "unmerged"]);
      await commit("docs/a.md", "unmerged one");
      files.pop();
      git(top, ["checkout", "-q", "-"]);

      const one = createGitTracker(root);
      await one.refresh();
      assert.equal(one.processes, 3, "a small repository: one log");
      const datesOf = (tracker: typeof one) => files.map((file) => tracker.dates(file));
      assert.equal(datesOf(one).filter((dates) => dates === undefined).length, 0);
      assert.deepEqual(one.dates("docs/a.md"), {
        first: Date.parse("2020-01-02T10:00:00Z"),
        last: Date.parse("2020-02-16T10:00:00Z"),
      });
      // Every way of cutting these commits: each part's commits, and the parts together all.
      for (let commitsPerPart = 1; commitsPerPart <= 7; commitsPerPart++) {
        for (let maxParts = 1; maxParts <= 5; maxParts++) {
          const parts = historyRanges(commits, commitsPerPart, maxParts);
          const parted = createGitTracker(root, undefined, {
            minObjects: 0,
            commitsPerPart,
            maxParts,
          });
          await parted.refresh();
          const what = `${commitsPerPart} a part, at most ${maxParts}`;
          assert.deepEqual(datesOf(parted), datesOf(one), what);
          assert.equal(
            parted.processes,
            2 + 1 + parts.length,
            `${what}: HEAD, the work tree's changes, the listing and the parts`,
          );
        }
      }
      assert.deepEqual(historyRanges(commits, 3, 4), [
        [commits[0], `^${commits[3]}`],
        [commits[3], `^${commits[7]}`],
        [commits[7]],
      ]);
      assert.deepEqual(historyRanges(commits, 3, 2), [[commits[0], `^${commits[5]}`], [
        commits[5],
      ]]);
      assert.deepEqual(historyRanges(commits, 6, 4), [[commits[0]]]);

      // The packs' count of objects, which decides whether the history is read in parts.
      assert.equal(packedObjects(join(top, ".git")), 0, "nothing packed yet");
      git(top, ["gc", "-q"]);
      const inPack = /in-pack: (\d+)/.exec(git(top, ["count-objects", "-v"]))![1];
      assert.ok(Number(inPack) > 12);
      assert.equal(packedObjects(join(top, ".git")), Number(inPack));
      const large = createGitTracker(root, undefined, {
        minObjects: Number(inPack),
        commitsPerPart: 3,
        maxParts: 2,
      });
      await large.refresh();
      assert.equal(large.processes, 2 + 1 + 2);
      assert.deepEqual(datesOf(large), datesOf(one));
      // An amend drops the commit read: a later refresh reads the history whole again, in parts,
      // its listing waited for as any process is (only a start's first refresh blocks on it).
      git(top, ["commit", "-q", "--amend", "--no-edit"], "2020-03-01T10:00:00Z");
      assert.equal((await large.refresh()).changed, "all");
      // HEAD, the work tree's changes, the log since (which does not reach the commit read),
      // the listing, the parts.
      assert.equal(large.processes, 5 + 2 + 1 + 1 + 2);
      const again = createGitTracker(root);
      await again.refresh();
      assert.deepEqual(datesOf(large), datesOf(again));
      assert.equal(large.dates("docs/b.md")?.last, Date.parse("2020-03-01T10:00:00Z"));
      const small = createGitTracker(root, undefined, {
        minObjects: Number(inPack) + 1,
        commitsPerPart: 3,
        maxParts: 2,
      });
      await small.refresh();
      assert.equal(small.processes, 3);
    } finally {
      await removeSite(top);
    }
  });

  it("a first refresh begins the whole log beside HEAD's rev-parse, through a file, and dates every file as the log in a pipe does", async (t) => {
    if (!HAS_GIT) return t.skip("no git here");
    const top = await repository();
    const root = join(top, "site");
    try {
      await appendFile(join(root, "docs/b.md"), " More.");
      git(top, ["commit", "-qam", "two"], "2021-05-06T10:00:00Z");
      const tracker = createGitTracker(root);
      await tracker.refresh();
      assert.equal(tracker.processes, 3, "the log, HEAD, the work tree's changes");
      assert.deepEqual(tracker.dates("docs/a.md"), {
        first: Date.parse("2020-01-02T10:00:00Z"),
        last: Date.parse("2020-01-02T10:00:00Z"),
      });
      assert.deepEqual(tracker.dates("docs/b.md"), {
        first: Date.parse("2020-01-02T10:00:00Z"),
        last: Date.parse("2021-05-06T10:00:00Z"),
      });
      // The file git wrote holds what the pipe carries, byte for byte.
      const args = ["log", "--format=%x01%m%H %ct", "--name-only", "-z", "--no-renames", "HEAD"];
      const [piped, filed] = [await execGit(root, args), await execGitToFile(root, args)];
      assert.equal(filed.code, 0);
      assert.ok(piped.stdout.length > 100);
      assert.equal(filed.stdout, piped.stdout);
      // A failing git says why, as through the pipe.
      const bad = await execGitToFile(root, ["log", "no-such-revision"]);
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /no-such-revision/);
      // A second refresh, HEAD unmoved: no log.
      await tracker.refresh();
      assert.equal(tracker.processes, 5, "HEAD read again (its stamp was not known), status");

      // A repository with no commit yet: the log begun beside HEAD fails, and nothing is dated;
      // once committed, the history is read at the commit.
      const empty = join(top, "empty");
      await mkdir(join(empty, "docs"), { recursive: true });
      await writeFile(join(empty, "docs/c.md"), md({ title: "C" }, LONG));
      git(empty, ["init", "-q"]);
      const unborn = createGitTracker(empty);
      await unborn.refresh();
      assert.equal(unborn.processes, 2, "the log and HEAD; no status without a commit");
      assert.equal(unborn.dates("docs/c.md"), undefined);
      git(empty, ["add", "."]);
      git(empty, ["commit", "-qm", "c"], "2022-01-02T10:00:00Z");
      assert.equal((await unborn.refresh()).changed, "all");
      assert.equal(unborn.dates("docs/c.md")?.last, Date.parse("2022-01-02T10:00:00Z"));
    } finally {
      await removeSite(top);
    }
  });

  it("the history is read as git prints it by default, whatever the repository's settings (diff.relative, log.showRoot)", async (t) => {
    if (!HAS_GIT) return t.skip("no git here");
    const top = await repository();
    const root = join(top, "site");
    try {
      // Paths relative to `-C`'s folder, and no files for the root commit, would leave every
      // file of this content root (a subfolder of the work tree) undated.
      git(top, ["config", "diff.relative", "true"]);
      git(top, ["config", "log.showRoot", "false"]);
      const tracker = createGitTracker(root);
      await tracker.refresh();
      const one = Date.parse("2020-01-02T10:00:00Z");
      assert.deepEqual(tracker.dates("docs/a.md"), { first: one, last: one });
      // The commits since, read the same way.
      await appendFile(join(root, "docs/b.md"), " More.");
      git(top, ["commit", "-qam", "two"], "2021-05-06T10:00:00Z");
      assert.deepEqual((await tracker.refresh()).changed, new Set(["docs/b.md"]));
      assert.deepEqual(tracker.dates("docs/b.md"), {
        first: one,
        last: Date.parse("2021-05-06T10:00:00Z"),
      });
    } finally {
      await removeSite(top);
    }
  });

  it("a first refresh whose log read HEAD before a commit that rev-parse saw reads the history again, at that commit", async (t) => {
    if (!HAS_GIT || process.platform === "win32") return t.skip("no git (or no sh) here");
    const top = await repository();
    const root = join(top, "site");
    const bin = await mkdtemp(join(tmpdir(), "content-feed-stub-git-"));
    const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
    // A git that commits once its first log has read HEAD, and whose first rev-parse waits for
    // that commit: the log and rev-parse disagree on HEAD, as when a commit lands between them.
    await writeFile(
      join(bin, "git"),
      `#!/bin/sh
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
for arg; do
  case "$arg" in
    log)
      if [ -e "${bin}/log-armed" ]; then
        rm "${bin}/log-armed"
        "${real}" "$@"; code=$?
        echo " Moved." >> "${root}/docs/a.md"
        GIT_AUTHOR_DATE=2023-07-08T10:00:00Z GIT_COMMITTER_DATE=2023-07-08T10:00:00Z \
          "${real}" -C "${top}" commit -qam moved
        touch "${bin}/moved"
        exit $code
      fi
      break;;
    rev-parse)
      if [ -e "${bin}/rev-parse-armed" ]; then
        rm "${bin}/rev-parse-armed"
        i=0
        while [ ! -e "${bin}/moved" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
      fi
      break;;
  esac
done
exec "${real}" "$@"
`,
    );
    await chmod(join(bin, "git"), 0o755);
    await writeFile(join(bin, "log-armed"), "");
    await writeFile(join(bin, "rev-parse-armed"), "");
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    try {
      const tracker = createGitTracker(root);
      await tracker.refresh();
      assert.ok(existsSync(join(bin, "moved")), "the stub's commit was made");
      assert.equal(tracker.processes, 4, "the log, HEAD, the log again at HEAD, the work tree");
      assert.equal(tracker.dates("docs/a.md")?.last, Date.parse("2023-07-08T10:00:00Z"));
    } finally {
      process.env.PATH = path;
      await removeSite(top);
      await rm(bin, { recursive: true, force: true });
    }
  });

  it("watchGitHead follows a linked work tree's own HEAD, and watches nothing outside a repository", async (t) => {
    if (!HAS_GIT) return t.skip("no git here");
    const top = await repository();
    const linked = `${top}-linked`;
    const plain = await mkdtemp(join(tmpdir(), "content-feed-plain-"));
    const stops: (() => void)[] = [];
    const watch = (root: string, calls: unknown[]) =>
      new Promise<boolean>((resolve) =>
        stops.push(watchGitHead(root, () => calls.push("moved"), { onReady: resolve }))
      );
    try {
      assert.equal(await watch(plain, []), false);
      git(top, ["worktree", "add", "-q", "-b", "side", linked]);
      const calls: unknown[] = [];
      assert.equal(await watch(join(linked, "site"), calls), true);
      await appendFile(join(linked, "site/docs/a.md"), " More.");
      git(linked, ["commit", "-qam", "side"], "2021-01-02T10:00:00Z");
      await until("a commit in the linked work tree", () => calls.length > 0);
      assert.deepEqual(calls, ["moved"]);
    } finally {
      for (const stop of stops) stop();
      await removeSite(top);
      await removeSite(linked);
      await removeSite(plain);
    }
  });
});
