// SPEC 6.2 (include, fields, sort, updated_since), SPEC 12's answers over
// HTTP (400 and 410), SPEC 13's sections, and snapshots that continue a
// journal across deploys.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import process from "node:process";
import { createContentApi, type Snapshot } from "../mod.ts";
import { githubAnchor, sectionsOf } from "../src/text/sections.ts";
import { textBlocks } from "../src/text/blocks.ts";
import { LONG, md, removeSite, sha256, withSite, writeSite } from "./helpers.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const CONFIG = `parameters:
  service.content.config:
    url: https://example.com
    plugins: { docs: ~, blog: ~, api: ~ }
`;
const FILES = {
  "services.yaml": CONFIG,
  "docs/b.md": md({ title: "beta", date: "2026-01-03", last_update: "2026-02-01" }, LONG),
  "docs/a.md": md({ title: "Álpha", date: "2026-01-01", last_update: "2026-03-01" }, LONG),
  "blog/c.md": md({ title: "Gamma", date: "2026-01-02", last_update: "2026-01-05" }, LONG),
};

describe("shape parameters (SPEC 6.2)", () => {
  it("fields narrows every item to the fields named, in canonical order, id always", async () => {
    await withSite(FILES, {}, async (s) => {
      const { body } = await s.json("/api/content.json?fields=last_update,checksum");
      for (const item of body.data) {
        assert.deepEqual(Object.keys(item), ["id", "checksum", "last_update"]);
      }
      const named = await s.json("/api/content.json?fields=title,url,body&limit=1");
      assert.deepEqual(Object.keys(named.body.data[0]), ["id", "title", "url", "body"]);
      assert.equal(named.body.data[0].body, LONG);
      const bad = await s.json("/api/content.json?fields=id,nope,checksums");
      assert.equal(bad.status, 400);
      assert.match(bad.body.detail, /fields accepts id, checksum, .* got "nope", "checksums"/);
    });
  });

  it("include adds url, body, text and sections after the seed's fields, in that order", async () => {
    await withSite(FILES, {}, async (s) => {
      const { body } = await s.json("/api/content.json?include=sections,body,url,text&limit=1");
      const keys = Object.keys(body.data[0]);
      assert.deepEqual(keys.slice(-4), ["url", "body", "text", "sections"]);
      assert.equal(body.data[0].text, LONG);
      // include adds to what fields leaves.
      const both = await s.json("/api/content.json?fields=checksum&include=text&limit=1");
      assert.deepEqual(Object.keys(both.body.data[0]), ["id", "checksum", "text"]);
    });
  });

  it("sort orders the matches before paging, ties in feed order", async () => {
    await withSite(FILES, {}, async (s) => {
      const ids = async (query: string) =>
        (await s.json(`/api/content.json?${query}`)).body.data.map((x: Json) => x.id);
      assert.deepEqual(await ids("sort=date"), ["docs_doc_a", "blog_post_c", "docs_doc_b"]);
      assert.deepEqual(await ids("sort=-date"), ["docs_doc_b", "blog_post_c", "docs_doc_a"]);
      assert.deepEqual(await ids("sort=-last_update"), ["docs_doc_a", "docs_doc_b", "blog_post_c"]);
      assert.deepEqual(await ids("sort=last_update&limit=1&page=2"), ["docs_doc_b"]);
      // Titles compare with case and accents ignored: Álpha, beta, Gamma.
      assert.deepEqual(await ids("sort=title"), ["docs_doc_a", "docs_doc_b", "blog_post_c"]);
      assert.deepEqual(await ids("sort=feed"), await ids(""));
      assert.equal((await s.json("/api/content.json?sort=newest")).status, 400);
    });
  });

  it("updated_since keeps items updated on or after the day", async () => {
    await withSite(FILES, {}, async (s) => {
      const ids = async (query: string) =>
        (await s.json(`/api/content.json?${query}`)).body.data.map((x: Json) => x.id);
      assert.deepEqual(await ids("updated_since=2026-02-01"), ["docs_doc_b", "docs_doc_a"]);
      assert.deepEqual(await ids("updated_since=2026-02-02&type=docs"), ["docs_doc_a"]);
      for (const bad of ["2026-02-30", "2026-2-1", "yesterday", "0000-01-01"]) {
        const { status, body } = await s.json(`/api/content.json?updated_since=${bad}`);
        assert.equal(status, 400, bad);
        assert.match(body.detail, /updated_since/);
      }
    });
  });

  it("the manifest is one small response a cache can keep", async () => {
    await withSite(FILES, {}, async (s) => {
      const first = await s.request("/api/content.json?fields=id,checksum,last_update");
      const etag = first.headers.get("etag")!;
      const again = await s.request("/api/content.json?fields=id,checksum,last_update", {
        headers: { "if-none-match": etag },
      });
      assert.equal(again.status, 304);
      const { body } = await s.json("/api/content.json?fields=id,checksum,last_update");
      assert.deepEqual(body.data.map((x: Json) => x.checksum), [
        sha256(FILES["docs/b.md"]),
        sha256(FILES["docs/a.md"]),
        sha256(FILES["blog/c.md"]),
      ]);
    });
  });
});

describe("since over HTTP (SPEC 12)", () => {
  it("is a 400 naming any filter it does not combine with, and for a malformed cursor", async () => {
    await withSite(FILES, {}, async (s) => {
      for (
        const other of [
          "tag=x",
          "author=x",
          "search=x",
          "year=2026",
          "indexable=true",
          "searchable=true",
          "page=2",
          "sort=date",
          "updated_since=2026-01-01",
        ]
      ) {
        const { status, body } = await s.json(`/api/content.json?since=0&limit=5&${other}`);
        assert.equal(status, 400, other);
        assert.match(
          body.detail,
          new RegExp(`^${other.split("=")[0]} cannot be combined with since`),
        );
      }
      for (const ok of ["type=docs", "category=doc", "include=body", "fields=id", "limit=1"]) {
        assert.equal((await s.json(`/api/content.json?since=0&${ok}`)).status, 200, ok);
      }
      const { status, body } = await s.json("/api/content.json?since=yesterday");
      assert.equal(status, 400);
      assert.match(body.detail, /since must be 0 or a cursor from meta\.cursor/);
    });
  });

  it("is a 410 for a cursor of another journal or past the head, saying to sync from 0", async () => {
    await withSite(FILES, {}, async (s) => {
      const [journal, head] = s.api.cursor.split(".");
      for (const cursor of [`other.${head}`, `${journal}.${Number(head) + 1}`]) {
        const response = await s.request(`/api/content.json?since=${cursor}`);
        assert.equal(response.status, 410, cursor);
        assert.equal(response.headers.get("content-type"), "application/problem+json");
        assert.match((await response.json()).detail, /sync again from since=0/);
      }
    });
  });

  it("pages with Link: rel=next until more is false, and meta.cursor is on every feed response", async () => {
    await withSite(FILES, {}, async (s) => {
      const first = await s.request("/api/content.json?since=0&limit=2");
      const body = await first.json();
      assert.equal(body.meta.more, true);
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("link")!)![1];
      assert.equal(new URL(next).searchParams.get("since"), body.meta.cursor);
      const last = await (await s.request(new URL(next).pathname + new URL(next).search)).json();
      assert.deepEqual([last.meta.more, last.meta.cursor], [false, s.api.cursor]);
      for (const query of ["", "?limit=1", "?fields=id", "?include=text"]) {
        assert.equal((await s.json(`/api/content.json${query}`)).body.meta.cursor, s.api.cursor);
      }
    });
  });
});

describe("sections (SPEC 13)", () => {
  const BODY = "Intro words.\n\n# Guide\n\nGuide text.\n\n## Setup {#install}\n\nRun it.\n\n" +
    "### Deep\n\nDeeper.\n\n#### Four\n\nStill deep.\n\n## Setup\n\nAgain.\n\n## Setup\n\nThird.";

  it("splits at headings 1-3, with anchors, paths, levels, text and checksums", async () => {
    const sections = await sectionsOf(textBlocks(BODY), "The Title");
    assert.deepEqual(sections.map((s) => [s.anchor, s.heading, s.path, s.level, s.text]), [
      ["", "The Title", ["The Title"], 0, "Intro words."],
      ["guide", "Guide", ["Guide"], 1, "Guide text."],
      ["install", "Setup", ["Guide", "Setup"], 2, "Run it."],
      ["deep", "Deep", ["Guide", "Setup", "Deep"], 3, "Deeper.\n\nFour\n\nStill deep."],
      ["setup", "Setup", ["Guide", "Setup"], 2, "Again."],
      ["setup-1", "Setup", ["Guide", "Setup"], 2, "Third."],
    ]);
    for (const section of sections) assert.equal(section.checksum, sha256(section.text));
  });

  it("leaves out empty text before the first heading, and titles a level-2 path with the item", async () => {
    const sections = await sectionsOf(textBlocks("## One\n\nA.\n\n### Two\n\nB."), "Doc");
    assert.deepEqual(sections.map((s) => s.path), [["Doc", "One"], ["Doc", "One", "Two"]]);
  });

  it("anchors by GitHub's rule, and counts duplicates as its slugger does", async () => {
    assert.equal(githubAnchor("What's new in 2.0?"), "whats-new-in-20");
    assert.equal(githubAnchor("C# & .NET"), "c--net");
    assert.equal(githubAnchor("Guía Rápida"), "guía-rápida");
    const sections = await sectionsOf(
      textBlocks("## A\n\nx\n\n## A\n\ny\n\n## A-1\n\nz\n\n## A\n\nw"),
      "T",
    );
    assert.deepEqual(sections.map((s) => s.anchor), ["a", "a-1", "a-1-1", "a-2"]);
  });

  it("changes only the edited section's checksum when one section is edited", async () => {
    await withSite(
      { "services.yaml": CONFIG, "docs/s.md": md({ title: "S" }, BODY) },
      {},
      async (s) => {
        const before = (await s.json("/docs/s.json?include=sections")).body.sections;
        await writeFile(
          join(s.root, "docs/s.md"),
          md({ title: "S" }, BODY.replace("Run it.", "Run it twice.")),
        );
        await s.api.reload();
        const after = (await s.json("/docs/s.json?include=sections")).body.sections;
        const changed = before.map((x: Json, i: number) => x.checksum !== after[i].checksum);
        assert.deepEqual(changed, [false, false, true, false, false, false]);
      },
    );
  });
});

describe("snapshots across deploys (SPEC 12 edges and replicas)", () => {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const deno = `${root}node_modules/.bin/deno`;

  it("--previous continues the old snapshot's journal; every replica gives the same cursors", async () => {
    const site = await writeSite(FILES);
    const first = `${site}.1.json`;
    const second = `${site}.2.json`;
    const run = (...args: string[]) =>
      execFileSync(deno, ["run", "-A", "cli.ts", "snapshot", ...args], {
        cwd: root,
        env: { ...process.env, CONTENT_CONFIG: join(site, "services.yaml") },
        stdio: "ignore",
      });
    try {
      run(first);
      const old = await createContentApi({ snapshot: first });
      const cursor = old.cursor;
      await writeFile(join(site, "docs/a.md"), md({ title: "Álpha, edited" }, LONG));
      await removeSite(join(site, "blog/c.md"));
      run(second, "--previous", first);
      const snapshot = JSON.parse(await readFile(second, "utf8")) as Snapshot;
      assert.equal(snapshot.journal.id, cursor.split(".")[0]);
      const [a, b] = [
        await createContentApi({ snapshot: second }),
        await createContentApi({ snapshot: second }),
      ];
      const answer = async (api: typeof a) =>
        await (await api.fetch(new Request(`https://edge/api/content.json?since=${cursor}`)))
          .text();
      assert.equal(await answer(a), await answer(b));
      const body = JSON.parse(await answer(a));
      assert.deepEqual(body.data.map((x: Json) => x.id), ["docs_doc_a"]);
      assert.deepEqual(body.deleted.map((x: Json) => x.id), ["blog_post_c"]);
      // A first snapshot has a new journal: its cursors are not the old one's.
      run(second);
      const fresh = await createContentApi({ snapshot: second });
      const gone = await fresh.fetch(new Request(`https://edge/api/content.json?since=${cursor}`));
      assert.equal(gone.status, 410);
    } finally {
      await removeSite(site);
      await removeSite(first);
      await removeSite(second);
    }
  });
});
