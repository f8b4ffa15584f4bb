// The README and docs/ stand alone (SPEC 15): every link resolves inside
// the repository, every anchor names a heading, and nothing points outside.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { ROOT } from "./server_helpers.ts";
import { createContentApi } from "../mod.ts";
import { memoryLogger } from "./helpers.ts";

const FILES = ["README.md", ...readdirSync(join(ROOT, "docs")).map((name) => `docs/${name}`)]
  .filter((path) => path.endsWith(".md"));

/** The README's size limit (issue 25): what it is, the two commands, one request, links into docs/. */
const README_BUDGET = 20 * 1024;

/** GitHub's anchor of a heading: lowercase, punctuation out, spaces to dashes. */
const anchorOf = (heading: string) =>
  heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");

function anchors(path: string): Set<string> {
  const text = readFileSync(join(ROOT, path), "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => anchorOf(heading)));
}

describe("the README and docs/", () => {
  it("refer to nothing outside the repository", () => {
    for (const path of FILES) {
      const text = readFileSync(join(ROOT, path), "utf8");
      assert.doesNotMatch(text, /shared\//, path);
      assert.doesNotMatch(text, /SPEC\.md/, path);
    }
  });

  it("keep the README a front door: under 20 KB, linking every page of docs/", () => {
    const bytes = readFileSync(join(ROOT, "README.md"));
    assert.ok(
      bytes.length < README_BUDGET,
      `README.md is ${bytes.length} bytes, over ${README_BUDGET}`,
    );
    const readme = new TextDecoder().decode(bytes);
    for (const page of FILES.filter((path) => path.startsWith("docs/"))) {
      assert.ok(readme.includes(`](${page})`), `README.md does not link to ${page}`);
    }
  });

  it("link only to files and headings that exist", () => {
    for (const path of FILES) {
      const text = readFileSync(join(ROOT, path), "utf8").replace(/```[\s\S]*?```/g, "");
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:)/.test(target)) continue;
        const [file, anchor] = target.split("#");
        const resolved = file ? join(dirname(join(ROOT, path)), file) : join(ROOT, path);
        assert.ok(existsSync(resolved), `${path} links to ${target}, which is not there`);
        assert.ok(
          !relative(ROOT, resolved).startsWith(".."),
          `${path} links outside the repository`,
        );
        if (anchor && resolved.endsWith(".md")) {
          assert.ok(
            anchors(relative(ROOT, resolved)).has(anchor),
            `${path} links to #${anchor} of ${relative(ROOT, resolved)}, which has no such heading`,
          );
        }
      }
    }
  });

  it("show the request and response the sample site gives (README: A request and its response)", async () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## A request and its response"));
    const url = section.match(/curl '(localhost:8000[^']+)'/)![1];
    const shown = JSON.parse(section.match(/```json\n([\s\S]*?)```/)![1]);
    const api = await createContentApi({
      config: join(ROOT, "content/services.yaml"),
      baseUrl: "http://localhost:8000",
      logger: memoryLogger(),
      watch: false,
    });
    try {
      const response = await api.fetch(new Request(`http://${url}`));
      assert.equal(response.status, 200);
      const body = await response.json();
      // The build time and the journal's cursor are the server's own; their shapes are the README's.
      assert.deepEqual(Object.keys(body.meta), Object.keys(shown.meta));
      assert.match(body.meta.generated, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      assert.match(body.meta.cursor, /^[0-9a-f]{10}\.\d+$/);
      assert.match(shown.meta.cursor, /^[0-9a-f]{10}\.\d+$/);
      assert.deepEqual(
        { ...body.meta, generated: "", cursor: "" },
        { ...shown.meta, generated: "", cursor: "" },
      );
      assert.deepEqual(body.data, shown.data);
    } finally {
      await api.close?.();
    }
  });
});
