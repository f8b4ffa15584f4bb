// The README and docs/ stand alone (SPEC 15): every link resolves inside
// the repository, every anchor names a heading, and nothing points outside.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { ROOT } from "./server_helpers.ts";

const FILES = ["README.md", ...readdirSync(join(ROOT, "docs")).map((name) => `docs/${name}`)]
  .filter((path) => path.endsWith(".md"));

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
});
