// SPEC 17, a restart with nothing changed: a server that stops gracefully
// keeps the full feed it served (bytes, offsets, ETags, encodings) in its
// state folder, and the next start that finds the same content serves those
// bytes with their build time instead of writing and compressing the feed
// again, so every answer (and ETag) is the one clients hold. Differential:
// what the kept image serves must equal what writing the feed anew gives.
// Anything else (an edit, another base URL, a journal gone, an image taken
// already, a damaged one) serves a feed written now, as before.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { createContentApi } from "../mod.ts";
import type { ContentApi } from "../mod.ts";
import { renderFullFeed } from "../src/feed/feed_bytes.ts";
import {
  dropFeedImage,
  FEED_IMAGE_FILE,
  keepFeedImage,
  readFeedImageSoon,
} from "../src/sync/feed_image_file.ts";
import type { FeedImage, FeedImageMeta } from "../src/pipeline/feed_image.ts";
import { gunzipSync } from "node:zlib";
import { Buffer } from "node:buffer";
import { configFor, LONG, md, memoryLogger, removeSite, sha256, writeSite } from "./helpers.ts";

const BASE = "https://example.com";
const FEED = `${BASE}/api/content.json`;
const HOUR = 3_600_000;
/** The length of the image file's magic line: its `meta` length follows. */
const MAGIC_LENGTH = "content-feed feed image 2\n".length;

function files(): Record<string, string> {
  const out: Record<string, string> = {
    "services.yaml": configFor(["docs", "blog", "api"], BASE),
    "blog/2024-05-06-hello.md": md({ title: "Hello", tags: ["news", "deno"] }, LONG),
  };
  for (let i = 0; i < 12; i++) {
    out[`docs/s${i % 3}/doc-${i}.md`] = md(
      { title: `Doc ${i}`, tags: [`t${i % 4}`, "deno"] },
      `${LONG} Number ${i}, café.`,
    );
  }
  return out;
}

/** What a client sees of the full feed: identity and gzip, bytes and validators. */
interface Seen {
  identity: Uint8Array;
  etag: string | null;
  lastModified: string | null;
  gzip: Uint8Array;
  gzipEtag: string | null;
  generated: string;
}

async function fullFeed(api: ContentApi): Promise<Seen> {
  const identity = await api.fetch(
    new Request(FEED, { headers: { "accept-encoding": "identity" } }),
  );
  const gzip = await api.fetch(new Request(FEED, { headers: { "accept-encoding": "gzip" } }));
  assert.equal(identity.status, 200);
  assert.equal(gzip.headers.get("content-encoding"), "gzip");
  const bytes = new Uint8Array(await identity.arrayBuffer());
  return {
    identity: bytes,
    etag: identity.headers.get("etag"),
    lastModified: identity.headers.get("last-modified"),
    gzip: new Uint8Array(await gzip.arrayBuffer()),
    gzipEtag: gzip.headers.get("etag"),
    generated: JSON.parse(new TextDecoder().decode(bytes)).meta.generated,
  };
}

/** Starts the service at the clock `now`, runs `fn`, closes it (its state folder stays). */
async function startedAt<T>(
  root: string,
  now: number,
  fn: (api: ContentApi) => Promise<T>,
  options: { baseUrl?: string; config?: string } = {},
): Promise<T> {
  const api = await createContentApi({
    config: join(root, options.config ?? "services.yaml"),
    logger: memoryLogger(),
    now: () => now,
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  });
  try {
    return await fn(api);
  } finally {
    api.close();
  }
}

/** The bytes writing the current index's full feed anew gives (what a start without an image serves). */
function written(api: ContentApi): Uint8Array {
  return renderFullFeed(api.index, BASE, api.cursor).bytes;
}

const T0 = Date.UTC(2026, 0, 1, 9);

describe("a restart with nothing changed serves the full feed its last server kept (SPEC 17)", () => {
  it("the same bytes, ETags and Last-Modified; the same as writing it anew; never left for a start after a change", async () => {
    const root = await writeSite(files());
    try {
      const first = await startedAt(root, T0, fullFeed);
      assert.equal(first.generated, "2026-01-01 09:00:00");
      const again = await startedAt(root, T0 + HOUR, async (api) => {
        const seen = await fullFeed(api);
        // Differential: the kept bytes are what this index's feed is, written anew.
        assert.deepEqual(seen.identity, written(api));
        assert.equal(api.index.builtAt, T0, "the stopped server's build time");
        // A page is cut from the kept feed: it agrees with it.
        const page = await (await api.fetch(new Request(`${FEED}?type=docs&limit=3`))).json();
        assert.equal(page.meta.generated, first.generated);
        return seen;
      });
      assert.deepEqual(again.identity, first.identity);
      assert.equal(again.etag, first.etag);
      assert.equal(again.lastModified, first.lastModified);
      assert.deepEqual(again.gzip, first.gzip);
      assert.equal(again.gzipEtag, first.gzipEtag);
      assert.equal(again.generated, first.generated);

      // That start kept it again (it served it): a third one serves it too.
      const third = await startedAt(root, T0 + 2 * HOUR, fullFeed);
      assert.equal(third.etag, first.etag);

      // A server whose content changed while it ran, and that did not serve the new feed:
      // the image it took is not left for a start after the change; it keeps its own
      // index's feed, written as it stops.
      await startedAt(root, T0 + 3 * HOUR, async (api) => {
        assert.equal(api.index.builtAt, T0, "it took the image");
        await writeFile(
          join(root, "docs/s0/doc-0.md"),
          md({ title: "Doc 0, again", tags: ["t0"] }, LONG),
        );
        await api.reload();
        assert.equal(api.index.builtAt, T0 + 3 * HOUR);
      });
      const fifth = await startedAt(root, T0 + 4 * HOUR, async (api) => {
        const seen = await fullFeed(api);
        assert.deepEqual(seen.identity, written(api));
        return seen;
      });
      assert.equal(fifth.generated, "2026-01-01 12:00:00", "the changed index's own feed");
      assert.notEqual(fifth.etag, first.etag, "not the image taken before the change");
    } finally {
      await removeSite(root);
    }
  });

  it("a server never asked for the full feed keeps it as it stops: pages keep their ETags across a restart", async () => {
    const root = await writeSite(files());
    const PAGE = `${FEED}?type=docs&limit=3`;
    const pageOf = async (api: ContentApi) => {
      const response = await api.fetch(new Request(PAGE));
      assert.equal(response.status, 200);
      return {
        etag: response.headers.get("etag"),
        lastModified: response.headers.get("last-modified"),
        body: await response.text(),
      };
    };
    try {
      // Its clients asked for a page only: the full feed is written as it stops.
      const first = await startedAt(
        root,
        T0,
        async (api) => ({ page: await pageOf(api), feed: written(api) }),
      );
      const again = await startedAt(root, T0 + HOUR, async (api) => {
        assert.equal(api.index.builtAt, T0, "the stopped server's build time");
        const page = await pageOf(api);
        const seen = await fullFeed(api);
        // Differential: the kept bytes are what this index's feed is, written anew.
        assert.deepEqual(seen.identity, written(api));
        return { page, seen };
      });
      assert.deepEqual(again.page, first.page, "the same page, ETag and Last-Modified");
      assert.deepEqual(again.seen.identity, first.feed);
      assert.equal(again.seen.etag, `"${sha256(first.feed).slice(0, 32)}"`);
      assert.equal(again.seen.lastModified, first.page.lastModified);
      // No gzip was kept: made when first asked for, then kept by that start's stop.
      assert.deepEqual(gunzipSync(again.seen.gzip), Buffer.from(first.feed));
      const third = await startedAt(root, T0 + 2 * HOUR, fullFeed);
      assert.deepEqual(third, again.seen);
    } finally {
      await removeSite(root);
    }
  });

  it("an edit while stopped, another base URL or a journal begun again: the feed is written anew", async () => {
    const root = await writeSite(files());
    try {
      const first = await startedAt(root, T0, fullFeed);
      // A post added while no server ran (it changes other items' tag counts too).
      await writeFile(
        join(root, "blog/2024-06-01-more.md"),
        md({ title: "More", tags: ["t1"] }, LONG),
      );
      const edited = await startedAt(root, T0 + HOUR, async (api) => {
        const seen = await fullFeed(api);
        assert.deepEqual(seen.identity, written(api));
        return seen;
      });
      assert.equal(edited.generated, "2026-01-01 10:00:00");
      assert.notEqual(edited.etag, first.etag);

      // Another base URL (BASE_URL when the config sets none): its links are other bytes.
      await writeFile(join(root, "services-nourl.yaml"), configFor(["docs", "blog", "api"]));
      const other = "https://other.example";
      await startedAt(root, T0 + 2 * HOUR, async (api) => {
        const response = await api.fetch(new Request(`${other}/api/content.json`));
        assert.equal((await response.json()).meta.url, `${other}/`);
      }, { config: "services-nourl.yaml", baseUrl: other });
      const back = await startedAt(root, T0 + 3 * HOUR, async (api) => {
        assert.equal(api.index.builtAt, T0 + 3 * HOUR, "not the other base URL's feed");
        return await fullFeed(api);
      });
      assert.equal(back.generated, "2026-01-01 12:00:00");

      // The journal begun again (its file removed; the cursor is another): written anew.
      const state = join(root, ".content-feed");
      await startedAt(root, T0 + 4 * HOUR, fullFeed); // keeps an image at cursor c
      const db = new DatabaseSync(join(state, "journal.sqlite"));
      db.exec("DELETE FROM entries; UPDATE meta SET value = 'otherjournal' WHERE key = 'id'");
      db.close();
      const renewed = await startedAt(root, T0 + 5 * HOUR, async (api) => {
        const seen = await fullFeed(api);
        assert.deepEqual(seen.identity, written(api));
        assert.match(api.cursor, /^otherjournal\./);
        return seen;
      });
      assert.equal(renewed.generated, "2026-01-01 14:00:00");
    } finally {
      await removeSite(root);
    }
  });

  it("a restart after an edit writes the full feed from the kept one: items as they were are copied", async () => {
    const root = await writeSite(files());
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    try {
      await startedAt(root, T0, fullFeed);
      // A mark in an unchanged item's bytes in the kept feed (the same length): served if copied.
      const file = join(root, ".content-feed", FEED_IMAGE_FILE);
      const kept = await readFile(file);
      const at = kept.indexOf('"title":"Doc 7"');
      assert.ok(at > 0);
      kept.set(new TextEncoder().encode('"title":"Doc Z"'), at);
      await writeFile(file, kept);
      // Another item's title edited while no server ran (its tags as they were).
      await writeFile(
        join(root, "docs/s0/doc-0.md"),
        md({ title: "Doc 0, edited", tags: ["t0", "deno"] }, `${LONG} Number 0, café.`),
      );
      await startedAt(root, T0 + HOUR, async (api) => {
        const seen = await fullFeed(api);
        const text = decode(seen.identity);
        assert.equal(seen.generated, "2026-01-01 10:00:00", "a feed of its own");
        assert.ok(text.includes('"title":"Doc Z"'), "doc-7's bytes copied from the kept feed");
        assert.ok(text.includes('"title":"Doc 0, edited"'), "the edited item written anew");
        // The mark undone, it is the feed written anew, byte for byte.
        assert.equal(text.replace('"title":"Doc Z"', '"title":"Doc 7"'), decode(written(api)));
      });
    } finally {
      await removeSite(root);
    }
  });

  it("a damaged image is not served: the feed is written anew, and no warning is needed", async () => {
    const root = await writeSite(files());
    try {
      const file = join(root, ".content-feed", FEED_IMAGE_FILE);
      for (const damage of ["truncated", "a byte of its length changed"]) {
        await startedAt(root, T0, fullFeed);
        const kept = await readFile(file);
        if (damage === "truncated") await writeFile(file, kept.subarray(0, kept.length - 10));
        else {
          kept[MAGIC_LENGTH + 1] ^= 1;
          await writeFile(file, kept);
        }
        const log = memoryLogger();
        const api = await createContentApi({
          config: join(root, "services.yaml"),
          logger: log,
          now: () => T0 + HOUR,
        });
        try {
          const seen = await fullFeed(api);
          assert.deepEqual(seen.identity, written(api), damage);
          assert.equal(seen.generated, "2026-01-01 10:00:00", damage);
          assert.deepEqual(log.warnings(), [], damage);
        } finally {
          api.close();
        }
        await rm(join(root, ".content-feed"), { recursive: true });
      }
    } finally {
      await removeSite(root);
    }
  });

  it("the file keeps an image whole, gives it once, and refuses a damaged one", async () => {
    const folder = await mkdtemp(join(tmpdir(), "content-feed-image-"));
    try {
      const bytes = new TextEncoder().encode('{"meta":{},"data":[{"id":"a"},{"id":"b"}]}');
      const image = {
        key: "k".repeat(64),
        builtAt: T0,
        base: BASE,
        type: "application/json; charset=utf-8",
        bytes,
        starts: new Uint32Array([20, 31, 41]),
        etag: '"e"',
        encoded: [{ coding: "gzip", bytes: new Uint8Array([1, 2, 3]), etag: '"g"' }],
        format: "f".repeat(64),
        items: ["a-key", "b-key"],
      };
      const plain = (taken: FeedImage | undefined) =>
        taken && {
          ...taken,
          bytes: [...taken.bytes],
          encoded: taken.encoded.map((e) => ({ ...e, bytes: [...e.bytes] })),
        };
      /** What a start does with the file: reads it, and removes it whatever it found. */
      const takeFeedImage = async (folder: string, wanted: (meta: FeedImageMeta) => boolean) => {
        try {
          return await readFeedImageSoon(folder, wanted)?.image;
        } finally {
          dropFeedImage(folder);
        }
      };
      keepFeedImage(folder, image);
      let asked: unknown;
      const taken = await takeFeedImage(folder, (meta) => (asked = meta, true));
      assert.deepEqual(plain(taken), plain(image));
      assert.equal((asked as { key: string }).key, image.key, "asked with its meta");
      assert.equal(await takeFeedImage(folder, () => true), undefined, "taken once");
      // Not wanted: not read, and gone all the same.
      keepFeedImage(folder, image);
      assert.equal(await takeFeedImage(folder, () => false), undefined);
      assert.equal(await takeFeedImage(folder, () => true), undefined);
      // Offsets that run past the bytes, or do not grow: no image.
      keepFeedImage(folder, { ...image, starts: new Uint32Array([20, 31, 4100]) });
      assert.equal(await takeFeedImage(folder, () => true), undefined);
      keepFeedImage(folder, { ...image, starts: new Uint32Array([20, 20, 41]) });
      assert.equal(await takeFeedImage(folder, () => true), undefined);
      // Read in two steps (a start's): the meta at once, the same image after.
      keepFeedImage(folder, image);
      const soon = readFeedImageSoon(folder, () => true);
      assert.equal(soon?.meta.key, image.key);
      assert.equal(soon?.meta.base, BASE);
      assert.deepEqual(plain(await soon?.image), plain(image));
      assert.equal(readFeedImageSoon(folder, () => false), undefined, "not wanted: not read");
      // Parts that are not sound, with a sound meta: a meta, and no image.
      keepFeedImage(folder, { ...image, starts: new Uint32Array([20, 20, 41]) });
      const unsound = readFeedImageSoon(folder, () => true);
      assert.equal(unsound?.meta.key, image.key);
      assert.equal(await unsound?.image, undefined);
      // A file cut short: its length is not the meta's, so no meta either.
      keepFeedImage(folder, image);
      const whole = await readFile(join(folder, FEED_IMAGE_FILE));
      await writeFile(join(folder, FEED_IMAGE_FILE), whole.subarray(0, whole.length - 3));
      assert.equal(readFeedImageSoon(folder, () => true), undefined);
      assert.equal(await takeFeedImage(folder, () => true), undefined);
      // A file that is not one: no image.
      await writeFile(join(folder, FEED_IMAGE_FILE), "not an image");
      assert.equal(readFeedImageSoon(folder, () => true), undefined);
      assert.equal(await takeFeedImage(folder, () => true), undefined);
      assert.deepEqual(await readdir(folder), [], "no temporary file left behind");
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe("a second server on the state folder keeps no image", () => {
  it("it neither takes the first's nor writes its own", async () => {
    const root = await writeSite(files());
    const file = join(root, ".content-feed", FEED_IMAGE_FILE);
    const exists = () => readFile(file).then(() => true, () => false);
    try {
      await startedAt(root, T0, fullFeed);
      assert.ok(await exists(), "a graceful stop keeps one");
      await startedAt(root, T0 + HOUR, async (holder) => {
        assert.equal(holder.index.builtAt, T0, "the holder took it");
        assert.ok(!(await exists()));
        const second = await startedAt(root, T0 + 2 * HOUR, fullFeed);
        assert.equal(second.generated, "2026-01-01 11:00:00");
        assert.ok(!(await exists()), "the second server wrote none");
      });
      assert.ok(await exists(), "the holder kept its own at its stop");
    } finally {
      await removeSite(root);
    }
  });
});

// A test of the file's own: the state folder removed between starts keeps nothing.
describe("a start on an empty state folder writes the feed anew", () => {
  it("even when a server on another state folder kept one", async () => {
    const root = await writeSite(files());
    try {
      const first = await startedAt(root, T0, fullFeed);
      await rm(join(root, ".content-feed"), { recursive: true });
      const fresh = await startedAt(root, T0 + HOUR, fullFeed);
      assert.equal(fresh.generated, "2026-01-01 10:00:00");
      assert.notEqual(fresh.etag, first.etag);
    } finally {
      await removeSite(root);
    }
  });
});
