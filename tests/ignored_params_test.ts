// Campaign tags and cache-busters (SPEC 6.1, issue 28): query parameters
// whose name starts with `utm_` or `_` are ignored on every GET route: never
// a 400, never another answer (the same body, ETag and links), never another
// entry in the answer store or its ready URLs, so a cache-buster cannot fill
// the cache.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseQuery } from "../mod.ts";
import { LONG, md, removeSite, withSite, writeSite } from "./helpers.ts";
import { countedHandler } from "./counted_handler.ts";

const FILES = {
  "docs/a.md": md({ title: "A", tags: ["x"] }, LONG),
  "docs/b.md": md({ title: "B" }, LONG),
  "docs/c.md": md({ title: "C" }, LONG),
};

/** What a request's answer is made of, for comparing two spellings of it. */
async function answerOf(response: Response) {
  return {
    status: response.status,
    etag: response.headers.get("etag"),
    link: response.headers.get("link"),
    type: response.headers.get("content-type"),
    body: await response.text(),
  };
}

const EXTRA = "utm_source=newsletter&utm_medium=email&_=1700000000&__v=2&_=again";

describe("utm_ and _ parameters are ignored (SPEC 6.1)", () => {
  it("on every GET route: the same answer as without them, and never a 400", async () => {
    await withSite(FILES, {}, async (s) => {
      for (
        const path of [
          "/api/content.json",
          "/api/content.json?limit=1&page=2",
          "/api/content.json?include=body,text&sort=title",
          "/api/content.json?since=0&limit=1",
          "/api/content.json?fields=id,checksum,last_update",
          "/feed.json?tag=x",
          "/docs/a.json?include=text",
          "/docs/a.md",
          "/sitemap.xml",
          "/llms.txt",
          "/api/openapi.json",
        ]
      ) {
        // Tagged first: the answer is made for it, then the plain request gets the same one.
        const tagged = await answerOf(
          await s.request(`${path}${path.includes("?") ? "&" : "?"}${EXTRA}`),
        );
        const plain = await answerOf(await s.request(path));
        assert.equal(plain.status, 200, `${path}: ${plain.body}`);
        assert.deepEqual(tagged, plain, path);
        assert.ok(
          !/utm_|[?&]_/.test(plain.link ?? ""),
          `${path}: links carry no ignored parameter`,
        );
      }
      // Alone, and before a bad parameter: the bad one is still named.
      assert.equal((await s.request("/api/content.json?utm_source=x")).status, 200);
      assert.equal((await s.request("/api/content.json?_=123")).status, 200);
      const bad = await s.json("/api/content.json?_=1&limit=abc");
      assert.equal(bad.status, 400);
      assert.match(bad.body.detail, /^limit must be/);
      const unknown = await s.json("/api/content.json?utm_source=x&source=x");
      assert.equal(unknown.status, 400);
      assert.match(unknown.body.detail, /^unknown parameter "source"/);
      // Only the prefixes: a name that merely holds them is a parameter like another.
      assert.equal((await s.request("/api/content.json?xutm_source=1")).status, 400);
      assert.equal((await s.request("/api/content.json?UTM_SOURCE=1")).status, 400);
    });
  });

  it("parseQuery (the package's export) ignores them too", () => {
    const vocabulary = { types: ["docs"], categories: ["doc"] };
    const plain = parseQuery(new URLSearchParams("type=docs&limit=2"), vocabulary);
    const tagged = parseQuery(new URLSearchParams(`type=docs&${EXTRA}&limit=2`), vocabulary);
    assert.equal(tagged.problem, undefined);
    assert.deepEqual(tagged, plain);
  });

  it("are no part of an answer's key: a cache-buster builds nothing and stays ready", async () => {
    const root = await writeSite({
      "services.yaml": "parameters:\n  service.content.config:\n    plugins: { docs: ~, api: ~ }\n",
      ...FILES,
    });
    try {
      const { handle, reads } = await countedHandler(root);
      const url = "https://example.com/api/content.json?include=body";
      const first = await handle(new Request(url));
      assert.equal(first.status, 200);
      const body = await first.text();
      const read = [...reads.values()].reduce((a, b) => a + b, 0);
      assert.equal(read, 3, "one read per file for the first answer");
      // Five hundred cache-busters: one answer, read once; each is ready without routing.
      for (let i = 0; i < 500; i++) {
        const busted = handle(new Request(`${url}&_=${i}&utm_campaign=c${i}`));
        assert.ok(busted instanceof Response, `cache-buster ${i} is answered as ready`);
        assert.equal(await busted.text(), body);
      }
      assert.equal([...reads.values()].reduce((a, b) => a + b, 0), read, "no file read again");
      // They took no room from other answers: one made before them is still ready.
      const other = "https://example.com/api/content.json?limit=1";
      await (await handle(new Request(other))).text();
      for (let i = 0; i < 500; i++) await handle(new Request(`${url}&_=${i}`));
      assert.ok(handle(new Request(other)) instanceof Response, "the other answer is still ready");
    } finally {
      await removeSite(root);
    }
  });

  it("the OpenAPI document says so", async () => {
    await withSite(FILES, {}, async (s) => {
      const doc = (await s.json("/api/openapi.json")).body;
      assert.match(doc.info.description, /utm_ or _ .* are ignored on every route/);
      for (const path of ["/api/content.json", "/feed.json", "/{type}/{uri}.json"]) {
        assert.match(doc.paths[path].get.description, /utm_ or _/, path);
      }
    });
  });
});
