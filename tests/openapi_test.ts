// GET /api/openapi.json: a valid OpenAPI 3.1 document (checked by a standard
// validator) whose schemas the real responses satisfy.
import { describe, it } from "node:test";
import { FEED_PARAMETERS } from "../src/routes/query.ts";
import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { LONG, md, site } from "./helpers.ts";

const FILES = {
  "academy/c.md": md({ title: "Course", tags: ["Deno"] }, LONG),
  "academy/c/m.md": md({ title: "Module", authors: [{ name: "Zoë Müller" }] }, LONG),
  "academy/c/m/l.md": md({ title: "Lesson", image: "/img/l.png" }, LONG),
  "blog/2026-01-02-hi.md": md({ title: "Hi", author: "Ana Pérez" }, LONG),
  "docs/a.md": md({ title: "A", indexable: false }, "short"),
  "faq/q.md": md({ title: "Q?" }, LONG),
  "pages/p.html": md({ title: "P" }, `<p>${LONG}</p>`),
};

describe("GET /api/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const s = await site(FILES);
    try {
      const { status, body, headers } = await s.json("/api/openapi.json");
      assert.equal(status, 200);
      assert.equal(headers.get("content-type"), "application/json; charset=utf-8");
      assert.equal(body.openapi, "3.1.0");
      const validator = new Validator();
      const result = await validator.validate(body);
      assert.deepEqual(result.errors, undefined, JSON.stringify(result.errors));
      assert.equal(result.valid, true);
      assert.deepEqual(Object.keys(body.paths).sort(), [
        "/",
        "/api/content.json",
        "/api/health",
        "/api/mcp",
        "/api/openapi.json",
        "/feed.json",
        "/llms-full.txt",
        "/llms.txt",
        "/sitemap.xml",
        "/{type}/{uri}.json",
        "/{type}/{uri}.md",
      ]);
      assert.deepEqual(Object.keys(body.paths["/api/mcp"]), ["post"]);
      const names = body.paths["/api/content.json"].get.parameters.map((p: { name: string }) =>
        p.name
      );
      // Every parameter the feed accepts is documented, in the same order.
      assert.deepEqual(names, [...FEED_PARAMETERS]);
      assert.deepEqual(body.servers, [{ url: "https://example.com/" }]);
    } finally {
      await s.close();
    }
  });

  it("describes the responses the service really gives", async () => {
    const s = await site(FILES);
    try {
      const { body: doc } = await s.json("/api/openapi.json");
      const ajv = new Ajv2020({ strict: false });
      ajv.addFormat("uri", (value: string) => URL.canParse(value));
      ajv.addSchema({ $id: "doc", components: doc.components });
      const check = (name: string, value: unknown) => {
        const validate = ajv.getSchema(`doc#/components/schemas/${name}`)!;
        assert.ok(validate(value), `${name}: ${JSON.stringify(validate.errors)}`);
      };
      const feed = (await s.json("/api/content.json")).body;
      assert.equal(feed.data.length, 6);
      check("Feed", feed);
      check("Feed", (await s.json("/api/content.json?limit=2&page=2")).body);
      for (const item of feed.data) {
        check("ItemDetail", (await s.json(new URL(item.link).pathname)).body);
      }
      check("ItemDetail", (await s.json("/docs/a.json")).body);
      check("ItemDetail", (await s.json("/docs/a.json?include=url,text,sections")).body);
      // The shapes of SPEC 6.2 and the answer to since (SPEC 12).
      const shaped = (await s.json("/api/content.json?include=url,body,text,sections")).body;
      check("Feed", shaped);
      assert.ok(shaped.data[0].sections.length > 0);
      check("Feed", (await s.json("/api/content.json?fields=id,checksum,last_update")).body);
      const first = (await s.json("/api/content.json?since=0&limit=2")).body;
      check("Feed", first);
      assert.equal(first.meta.more, true);
      check("Feed", (await s.json(`/api/content.json?since=${first.meta.cursor}`)).body);
      check("Problem", (await s.json("/api/content.json?since=zzz.1")).body);
      check("Problem", (await s.json("/api/content.json?limit=0")).body);
      check("Problem", (await s.json("/docs/nope.json")).body);
      check("Health", (await s.json("/api/health")).body);
      check("RouteIndex", (await s.json("/")).body);
      // The schemas are strict: an extra field would fail them.
      const validate = ajv.getSchema("doc#/components/schemas/Item")!;
      assert.equal(validate({ ...feed.data[0], extra: 1 }), false);
    } finally {
      await s.close();
    }
  });
});
