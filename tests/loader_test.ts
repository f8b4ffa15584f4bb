// The loader shares a large first load with a helper Web Worker (Deno, Bun)
// and reads on the main thread where there is none (Node). Whoever reads a
// file, the parsed files and warnings must be the same; these tests compare
// a helped load with one on the main thread alone, over a generated site
// with broken files in it.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSite } from "../bench/site.ts";
import type { ContentConfig } from "../src/config/types.ts";
import type { IndexedFile } from "../src/fields/indexed_file.ts";
import { indexFile } from "../src/fields/index_file.ts";
import { buildIndexFrom, indexSettings } from "../src/index/build.ts";
import { loadConfigFile } from "../src/config/load.ts";
import type { ReadWorkerData } from "../src/pipeline/read_worker.ts";
import { createLoader, listedStampsKey, type Loaded } from "../src/source/loader.ts";
import { readContentFiles, type ReadJob } from "../src/source/read_file.ts";

/**
 * A loader as the service makes one (fields derived as files are read),
 * sharing loads of at least `from` files with the helper worker.
 */
function loaderFor(config: ContentConfig, from: number, keepBody = true) {
  return createLoader<IndexedFile>(config, {
    prepare: (parsed, shown) => indexFile(parsed, shown, { keepBody }),
    helper: {
      url: new URL("../src/pipeline/read_worker.ts", import.meta.url),
      data: { keepBody } satisfies ReadWorkerData,
      from,
      cores: 1, // the helper is tested on any machine, two cores too
    },
  });
}

const byFile = (a: { file: string; message: string }, b: { file: string; message: string }) =>
  `${a.file}\n${a.message}` < `${b.file}\n${b.message}` ? -1 : 1;

/** What a load gave, made comparable (files and warnings in path order), without who read what. */
function sorted({ files, warnings, read, changed }: Loaded<IndexedFile>) {
  const byPath = (a: { path: string; plugin: string }, b: { path: string; plugin: string }) =>
    `${a.plugin}/${a.path}` < `${b.plugin}/${b.path}` ? -1 : 1;
  return {
    files: [...files].sort(byPath),
    warnings: [...warnings].sort(byFile),
    read,
    changed,
  };
}

/** A temporary site of the docs plugin alone, its `docs/` folder empty. */
async function docsOnlySite(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "content-feed-loader-"));
  await writeFile(
    join(root, "services.yaml"),
    "parameters:\n  service.content.config:\n    plugins: { docs: ~ }\n",
  );
  await mkdir(join(root, "docs"));
  return root;
}

/** Whether this runtime has Web Workers, so the loader can use a helper (Deno, Bun; not Node). */
const hasWorker = typeof (globalThis as { Worker?: unknown }).Worker === "function";

async function generated(): Promise<{ root: string; config: string; paths: string[] }> {
  const root = await mkdtemp(join(tmpdir(), "content-feed-loader-"));
  const paths = await generateSite(root, 400, 7);
  // Files that become warnings, wherever they are read.
  await writeFile(join(root, "docs/latin1.md"), new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xe9]));
  await writeFile(join(root, "docs/nul.md"), "---\ntitle: x\n---\na\0b");
  await writeFile(join(root, "docs/bad-yaml.md"), "---\ntitle: [open\n---\nbody");
  // Every seventh file is served with a warning from deriving its fields,
  // so some are derived by the helper and some here, whoever reads which.
  for (const path of paths.filter((_, i) => i % 7 === 0)) {
    const text = await readFile(join(root, path), "utf8");
    await writeFile(join(root, path), text.replace(/^---\n/, "---\nimage: 5\n"));
  }
  await symlink(join(root, "docs/missing-target.md"), join(root, "docs/broken-link.md"));
  // Listing warnings in two plugins, whose folders are listed concurrently.
  await symlink(join(root, "blog/missing-target.md"), join(root, "blog/broken-link.md"));
  await symlink(join(root, "faq/missing-target.md"), join(root, "faq/broken-link.md"));
  return { root, config: join(root, "services.yaml"), paths };
}

describe("loader", () => {
  it("gives the same files and warnings with the helper worker as on the main thread alone", async () => {
    const { root, config } = await generated();
    try {
      const settings = await loadConfigFile(config);
      const aloneLoad = await loaderFor(settings, Infinity).load();
      const helpedLoad = await loaderFor(settings, 1).load();
      assert.equal(aloneLoad.helped, 0);
      if (hasWorker) {
        assert.ok(helpedLoad.helped > 0, "the helper read nothing");
        assert.ok(helpedLoad.helped < helpedLoad.read, "this thread read nothing");
      } else assert.equal(helpedLoad.helped, 0);
      const alone = sorted(aloneLoad);
      const helped = sorted(helpedLoad);
      assert.ok(alone.files.length > 350, `only ${alone.files.length} files`);
      assert.deepEqual(helped, alone);
      const messages = alone.warnings.map((w) => `${w.file}: ${w.message}`);
      for (const expected of ["docs/latin1.md", "docs/nul.md", "docs/bad-yaml.md"]) {
        assert.ok(messages.some((m) => m.startsWith(expected)), `no warning for ${expected}`);
      }
      // The helper derives the fields of the files it reads; the index built
      // from them must be the one built from fields derived here.
      const indexOf = (files: IndexedFile[], warnings: Loaded<IndexedFile>["warnings"]) => {
        const index = buildIndexFrom(files, indexSettings(settings), 0, { warnings });
        return { items: index.items, warnings: [...index.warnings].sort(byFile) };
      };
      const fromHelped = indexOf(helpedLoad.files, helpedLoad.warnings);
      const fromAlone = indexOf(aloneLoad.files, aloneLoad.warnings);
      assert.ok(fromAlone.warnings.length > 50, `only ${fromAlone.warnings.length} warnings`);
      assert.deepEqual(fromHelped, fromAlone);

      // Without the text (what the server keeps), on either thread: only
      // what the index needs, and the same index but for the bodies it does
      // not hold.
      for (const helperFrom of [Infinity, 1]) {
        const lean = await loaderFor(settings, helperFrom, false).load();
        for (const file of lean.files) {
          // `redate`: what its dates are made of besides git, where the file does not fix them.
          assert.deepEqual(
            Object.keys(file).filter((key) => key !== "redate").sort(),
            ["checksum", "fields", "mtime", "path", "plugin", "warnings"],
          );
          if (file.redate) assert.deepEqual(Object.keys(file.redate), ["dates"]);
        }
        const fromLean = indexOf(lean.files, lean.warnings);
        assert.ok(fromLean.items.every((item) => item.body === undefined));
        assert.deepEqual(
          fromLean,
          { ...fromAlone, items: fromAlone.items.map((item) => ({ ...item, body: undefined })) },
        );
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("after a helped first load, a full reload reads only what changed", async () => {
    const { root, config, paths } = await generated();
    try {
      const loader = loaderFor(await loadConfigFile(config), 1);
      const first = await loader.load();
      assert.equal(first.read, first.files.length + 3); // every file, the three broken ones too
      const again = await loader.load();
      assert.equal(again.changed, false);
      assert.equal(again.read, 0);
      const edited = paths.find((p) => p.startsWith("blog/"))!;
      await writeFile(join(root, edited), "---\ntitle: Edited\n---\nA new body.");
      const after = await loader.load();
      assert.equal(after.changed, true);
      assert.equal(after.read, 1);
      const file = after.files.find((f) => `blog/${f.path}` === edited)!;
      assert.equal(file.fields.title, "Edited");
      assert.equal(file.body, "A new body.");
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
  it("a listing with reread compares by checksum the files this process read near a change", async () => {
    const root = await docsOnlySite();
    try {
      // One file written just now (its stamp may not show a write right after its read), one an
      // hour ago.
      await writeFile(join(root, "docs/new.md"), "---\ntitle: New\n---\nJust written.");
      await writeFile(join(root, "docs/old.md"), "---\ntitle: Old\n---\nWritten long ago.");
      const then = Date.now() / 1000 - 3600;
      await utimes(join(root, "docs/old.md"), then, then);
      const loader = loaderFor(await loadConfigFile(join(root, "services.yaml")), Infinity);
      const first = await loader.load();
      assert.equal(first.read, 2);
      // A listing trusts every stamp this process took: the watcher names what changed since.
      const trusted = await loader.load();
      assert.deepEqual([trusted.read, trusted.work.verified], [0, 0]);
      // One that catches up with what no watcher saw compares the recent file's bytes.
      const caughtUp = await loader.load(undefined, true);
      assert.deepEqual([caughtUp.read, caughtUp.work.verified, caughtUp.changed], [1, 1, false]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
  it("a listing offered at a mark serves the next full load, unless a load began since; a load of named paths lists on its own", async () => {
    // The service's catch-up lists to find what changed while no watch ran, then reloads: the
    // reload takes that listing instead of listing a second time (SPEC 10). Files added after the
    // listing show whether a load took it (absent) or listed on its own (present).
    const root = await docsOnlySite();
    try {
      await writeFile(join(root, "docs/a.md"), "---\ntitle: A\n---\nA.");
      const config = await loadConfigFile(join(root, "services.yaml"));
      const loader = loaderFor(config, Infinity);
      const paths = (loaded: Loaded<IndexedFile>) => loaded.files.map((f) => f.path).sort();
      assert.deepEqual(paths(await loader.load()), ["a.md"]);
      const listing = async () => {
        const mark = loader.listingMark();
        assert.notEqual(mark, undefined, "no load runs");
        const { listed } = await listedStampsKey(config, false);
        return { mark: mark!, listed };
      };

      // Taken by the next full load (with reread, as the catch-up reloads).
      let offer = await listing();
      await writeFile(join(root, "docs/b.md"), "---\ntitle: B\n---\nB.");
      loader.offerListing(offer.listed, offer.mark);
      assert.deepEqual(paths(await loader.load(undefined, true)), ["a.md"], "the offered listing");
      assert.deepEqual(paths(await loader.load()), ["a.md", "b.md"], "taken once: then its own");

      // A load began after the mark: dropped.
      offer = await listing();
      await writeFile(join(root, "docs/c.md"), "---\ntitle: C\n---\nC.");
      await loader.load([join(root, "docs/a.md")]);
      loader.offerListing(offer.listed, offer.mark);
      assert.deepEqual(paths(await loader.load(undefined, true)), ["a.md", "b.md", "c.md"]);

      // A load of named paths does not take it (a watcher's changes may be newer), even where it
      // lists in full (a folder named), and drops it.
      offer = await listing();
      await mkdir(join(root, "docs/sub"));
      await writeFile(join(root, "docs/sub/d.md"), "---\ntitle: D\n---\nD.");
      loader.offerListing(offer.listed, offer.mark);
      assert.deepEqual(paths(await loader.load([join(root, "docs/sub")])), [
        "a.md",
        "b.md",
        "c.md",
        "sub/d.md",
      ]);
      await writeFile(join(root, "docs/e.md"), "---\ntitle: E\n---\nE.");
      assert.equal((await loader.load()).files.length, 5, "listed on its own");

      // Dropped (asks joined the reload that would take it): the next full load lists.
      offer = await listing();
      await writeFile(join(root, "docs/f.md"), "---\ntitle: F\n---\nF.");
      loader.offerListing(offer.listed, offer.mark);
      loader.dropListing();
      assert.equal((await loader.load(undefined, true)).files.length, 6, "listed on its own");

      // No mark while a load runs.
      const running = loader.load();
      assert.equal(loader.listingMark(), undefined);
      await running;
      assert.notEqual(loader.listingMark(), undefined);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
  it("gives the event loop turns while a blocking load reads (a signal, a health check, the helper)", async () => {
    const root = await mkdtemp(join(tmpdir(), "content-feed-turns-"));
    try {
      const jobs: ReadJob[] = [];
      for (let i = 0; i < 40; i++) {
        await writeFile(join(root, `${i}.md`), `# Page ${i}\n\nSome words.`);
        jobs.push({
          abs: join(root, `${i}.md`),
          plugin: "docs",
          path: `${i}.md`,
          shown: `docs/${i}.md`,
          maxSize: 1 << 20,
        });
      }
      let doneFiles = 0;
      let filesWhenTimerRan = -1;
      setTimeout(() => filesWhenTimerRan = doneFiles, 0);
      let next = 0;
      await readContentFiles(() => jobs[next++], () => {
        // A file that takes a millisecond to derive: 40 of them hold the thread for 40 ms.
        const until = performance.now() + 1;
        while (performance.now() < until);
        doneFiles++;
      }, true);
      assert.equal(doneFiles, 40);
      assert.ok(
        filesWhenTimerRan >= 0 && filesWhenTimerRan < 40,
        `the timer ran after ${filesWhenTimerRan} of 40 files`,
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
