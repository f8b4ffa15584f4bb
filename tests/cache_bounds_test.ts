// Every cache the service keeps has a stated bound (SPEC 9 "Bounded
// memory"); these pin each one, so that a change that lets one grow with
// traffic fails here.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createNameInterner } from "../src/fields/names.ts";
import {
  type AnswerContext,
  type AnswerStore,
  createAnswerStore,
} from "../src/http/answer_store.ts";
import { answer, type AnswerPlan } from "../src/feed/plan.ts";
import { emptyJournal } from "../src/sync/state.ts";
import { createResponseCache } from "../src/http/response_cache.ts";
import { buildIndex } from "../src/index/build_parsed.ts";
import { join } from "node:path";
import { createContentApi } from "../mod.ts";
import { copySite, LONG, md, memoryLogger, removeSite, withSite } from "./helpers.ts";

describe("the response cache (bounded by bytes)", () => {
  it("never holds more than its budget, evicting the least recently used first", () => {
    const cache = createResponseCache<string>(100);
    for (let i = 0; i < 50; i++) {
      cache.set(`k${i}`, `v${i}`, 30);
      assert.ok(cache.bytes <= 100, `${cache.bytes} bytes after ${i + 1} entries`);
    }
    assert.equal(cache.size, 3);
    assert.equal(cache.get("k49"), "v49");
    assert.equal(cache.get("k0"), undefined);
    // A use makes an entry the most recent: the next one in evicts another.
    assert.equal(cache.get("k47"), "v47");
    cache.set("new", "n", 30);
    assert.equal(cache.get("k47"), "v47");
    assert.equal(cache.get("k48"), undefined);
  });

  it("counts an entry's growth (an encoding made later) against the budget", () => {
    const cache = createResponseCache<string>(100);
    cache.set("a", "A", 40);
    cache.set("b", "B", 40);
    cache.resize("b", "B", 70); // b gained a gzip variant
    assert.equal(cache.get("a"), undefined);
    assert.equal(cache.bytes, 70);
    cache.resize("gone", "X", 1000); // an entry evicted meanwhile is not counted
    assert.equal(cache.bytes, 70);
  });

  it("evicts as a list in use order would, through random uses, sets, resizes and drops", () => {
    // The model: entries oldest first, moved to the end on every use.
    let model: { key: string; value: string; bytes: number }[] = [];
    const evict = () => {
      let held = model.reduce((sum, entry) => sum + entry.bytes, 0);
      while (held > 100 && model.length > 1) held -= model.shift()!.bytes;
    };
    const cache = createResponseCache<string>(100);
    let seed = 7;
    const next = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    for (let step = 0; step < 5000; step++) {
      const key = `k${next(6)}`;
      const at = model.findIndex((entry) => entry.key === key);
      const op = next(20);
      if (op < 10) {
        const found = at === -1 ? undefined : model.splice(at, 1)[0];
        if (found) model.push(found);
        assert.equal(cache.get(key), found?.value, `step ${step}: get ${key}`);
      } else if (op < 16) {
        const entry = { key, value: `v${step}`, bytes: 5 + next(50) };
        if (at !== -1) model.splice(at, 1);
        model.push(entry);
        evict();
        cache.set(key, entry.value, entry.bytes);
      } else if (op < 18) {
        const bytes = 5 + next(60);
        if (at !== -1) {
          model[at].bytes = bytes;
          cache.resize(key, model[at].value, bytes);
          evict();
        }
        cache.resize(key, "another value", 1000); // not the entry it holds: nothing changes
      } else if (op < 19) {
        model = model.filter((entry) => entry.key !== key);
        cache.retain((other) => other !== key);
      } else if (next(10) === 0) {
        model = [];
        cache.clear();
      }
      assert.equal(cache.size, model.length, `step ${step}: size`);
      assert.equal(cache.bytes, model.reduce((sum, entry) => sum + entry.bytes, 0));
    }
  });

  it("keeps an entry larger than the whole budget only while it is the newest", () => {
    const cache = createResponseCache<string>(100);
    cache.set("small", "s", 10);
    cache.set("huge", "h", 500);
    assert.equal(cache.size, 1);
    assert.equal(cache.get("huge"), "h");
    cache.set("next", "n", 10);
    assert.equal(cache.get("huge"), undefined);
    assert.equal(cache.bytes, 10);
  });
});

describe("the answer store", () => {
  const settings = {
    title: undefined,
    url: undefined,
    api: true,
    sitemap: false,
    plugins: [{ name: "docs", path: "docs" }],
  };
  const index = buildIndex([], settings, 0);

  const gatherNothing = () => Promise.resolve({ extras: new Map(), changed: [] });
  /** A plan whose body is made from nothing, counting how often it is made. */
  const counted = (key: string, body: string) => {
    const plan = { ...answer(key, "text/plain", () => body), made: 0 };
    const make = plan.make;
    plan.make = (making) => {
      plan.made++;
      return make(making);
    };
    return plan;
  };
  /** Sends a plan's answer, as the handler does. */
  const send = async (store: AnswerStore, c: AnswerContext, request: Request, plan: AnswerPlan) => {
    const made = await store.made(c, plan);
    assert.ok(!("stale" in made));
    return store.send(request, c, plan, made);
  };

  it("remembers at most 256 request URLs for answers without routing", async () => {
    const store = createAnswerStore(
      { cors: true, cacheControl: "public" },
      "https://x.example",
      gatherNothing,
    );
    store.follow(index);
    const context = { index, journal: emptyJournal("j1"), base: "https://x.example" };
    const request = (n: number) => new Request(`https://x.example/api/content.json?n=${n}`);
    const plan = counted("same", "one answer");
    for (let n = 0; n < 300; n++) await send(store, context, request(n), plan);
    assert.equal(plan.made, 1, "one answer, made once");
    assert.equal(store.ready(request(0), index), undefined, "the oldest URL is forgotten");
    assert.ok(store.ready(request(299), index), "the newest URL is answered at once");
  });

  it("forgets every answer of an index once another index is followed", async () => {
    const store = createAnswerStore(
      { cors: true, cacheControl: "public" },
      "https://x.example",
      gatherNothing,
    );
    store.follow(index);
    const context = { index, journal: emptyJournal("j1"), base: "https://x.example" };
    const request = new Request("https://x.example/a");
    const plan = counted("a", "a");
    await send(store, context, request, plan);
    await send(store, context, request, plan);
    assert.equal(plan.made, 1, "kept");
    const next = buildIndex([], settings, 1);
    store.follow(next);
    await store.made({ ...context, index: next }, plan);
    assert.equal(plan.made, 2, "made again for the next index");
    assert.equal(store.ready(request, next), undefined);
  });
});

describe("the name interner", () => {
  it("forgets every name past its bound, and shares objects within it", () => {
    const share = createNameInterner(3);
    const [a] = share([{ name: "A", slug: "a" }]);
    assert.equal(share([{ name: "A", slug: "a" }])[0], a);
    share([{ name: "B", slug: "b" }, { name: "C", slug: "c" }]);
    share([{ name: "D", slug: "d" }]); // a fourth name: it starts over
    assert.notEqual(share([{ name: "A", slug: "a" }])[0], a);
  });
});

describe("a response cache of one byte", () => {
  it("still answers every route right: only the newest answer is kept", async () => {
    await withSite(
      {
        "docs/a.md": md({ title: "A", tags: ["x"] }, LONG),
        "docs/b.md": md({ title: "B", tags: ["x"] }, LONG),
      },
      {},
      async (roomy) => {
        // The same files and journal (a copy: one service writes a journal), the same
        // clock, a budget of one byte.
        const copy = await copySite(roomy.root);
        const tight = await createContentApi({
          config: join(copy, "services.yaml"),
          now: () => roomy.api.index.builtAt,
          logger: memoryLogger(),
          cacheBytes: 1,
        });
        try {
          for (let round = 0; round < 2; round++) {
            for (
              const path of [
                "/api/content.json",
                "/api/content.json?limit=1",
                "/api/content.json?tag=x&limit=1&page=2",
                "/docs/a.json",
                "/docs/b.json",
                "/sitemap.xml",
              ]
            ) {
              const want = await roomy.request(path);
              const got = await tight.fetch(new Request(`http://localhost:8000${path}`));
              assert.equal(got.status, want.status, path);
              assert.equal(got.headers.get("etag"), want.headers.get("etag"), path);
              assert.equal(await got.text(), await want.text(), path);
            }
          }
        } finally {
          tight.close();
          await removeSite(copy);
        }
      },
    );
  });
});
