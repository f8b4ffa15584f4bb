import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { globMatcher } from "../src/util/glob.ts";

/** The paths of `paths` that the patterns match. */
function matches(patterns: string[], paths: string[]): string[] {
  const match = globMatcher(patterns);
  return paths.filter((path) => match(path));
}

describe("globMatcher", () => {
  it("matches nothing with no patterns", () => {
    assert.deepEqual(matches([], ["a.md", "x/a.md", ""]), []);
  });

  it("**/*.md matches Markdown files at every depth, top level included", () => {
    assert.deepEqual(
      matches(["**/*.md"], [
        "a.md",
        "x/a.md",
        "x/y/z/a.md",
        "a.markdown",
        "a.md.bak",
        "amd",
        "x/a.mdx",
        "x/md",
      ]),
      ["a.md", "x/a.md", "x/y/z/a.md"],
    );
  });

  it("drafts/** matches everything under drafts/ and nothing else", () => {
    assert.deepEqual(
      matches(["drafts/**"], [
        "drafts/wip.md",
        "drafts/a/b/c.md",
        "drafts.md",
        "guide/drafts/x.md",
        "my-drafts/x.md",
        "draftsx/a.md",
      ]),
      ["drafts/wip.md", "drafts/a/b/c.md"],
    );
  });

  it("a leading ./ is ignored", () => {
    assert.deepEqual(matches(["./drafts/**"], ["drafts/wip.md", "x/drafts/wip.md"]), [
      "drafts/wip.md",
    ]);
  });

  it(".md is shorthand for files with that extension at any depth", () => {
    assert.deepEqual(
      matches([".md"], ["a.md", "x/y/a.md", "amd", "a.markdown", "a.md.txt", "x/amd"]),
      ["a.md", "x/y/a.md"],
    );
    assert.deepEqual(
      matches([".md", ".markdown", ".html"], ["a.md", "b.markdown", "c/d.html", "e.htm", "f.txt"]),
      ["a.md", "b.markdown", "c/d.html"],
    );
  });

  it("*.md without a slash matches at any depth", () => {
    assert.deepEqual(matches(["*.md"], ["a.md", "x/a.md", "x/y/a.md", "a.txt", "x/a.txt"]), [
      "a.md",
      "x/a.md",
      "x/y/a.md",
    ]);
  });

  it("a pattern with a slash is anchored and * does not cross folders", () => {
    assert.deepEqual(
      matches(["guide/*.md"], ["guide/a.md", "guide/x/a.md", "other/guide/a.md", "guide.md"]),
      ["guide/a.md"],
    );
  });

  it("** in the middle matches zero or more folders", () => {
    assert.deepEqual(
      matches(["guide/**/*.md"], ["guide/a.md", "guide/x/a.md", "guide/x/y/a.md", "a.md"]),
      ["guide/a.md", "guide/x/a.md", "guide/x/y/a.md"],
    );
  });

  it("{a,b} matches either alternative", () => {
    assert.deepEqual(
      matches(["*.{md,markdown}"], ["a.md", "x/b.markdown", "c.mdown", "d.{md,markdown}"]),
      ["a.md", "x/b.markdown"],
    );
    assert.deepEqual(
      matches(["{drafts,tmp}/**"], ["drafts/a.md", "tmp/b/c.md", "other/a.md", "drafts,tmp/a.md"]),
      ["drafts/a.md", "tmp/b/c.md"],
    );
  });

  it("? matches exactly one character other than /", () => {
    assert.deepEqual(
      matches(["?.md"], ["a.md", "b.md", "ab.md", ".md", "x/a.md", "x/ab.md"]),
      ["a.md", "b.md", "x/a.md"],
    );
    assert.deepEqual(matches(["a?b.md"], ["axb.md", "a/b.md", "ab.md"]), ["axb.md"]);
  });

  it("dots and other regex characters are literal", () => {
    assert.deepEqual(matches(["a.md"], ["a.md", "aXmd", "x/a.md", "a.mdx"]), ["a.md", "x/a.md"]);
    assert.deepEqual(matches(["c++.md"], ["c++.md", "cc.md", "c.md"]), ["c++.md"]);
    assert.deepEqual(matches(["notes (1).md"], ["notes (1).md", "notes 1.md"]), [
      "notes (1).md",
    ]);
    assert.deepEqual(matches(["$price^.md"], ["$price^.md", "price.md"]), ["$price^.md"]);
  });

  it("matches the whole path, not a part of it", () => {
    assert.deepEqual(matches(["docs/a.md"], ["docs/a.md", "xdocs/a.md", "docs/a.md/b"]), [
      "docs/a.md",
    ]);
  });

  it("several patterns match their union", () => {
    assert.deepEqual(
      matches(["drafts/**", "*.tmp.md"], ["drafts/a.md", "x/b.tmp.md", "c.md"]),
      ["drafts/a.md", "x/b.tmp.md"],
    );
  });

  it("matches non-ASCII file names", () => {
    assert.deepEqual(matches(["guía/*.md"], ["guía/rápida.md", "guia/rapida.md"]), [
      "guía/rápida.md",
    ]);
  });
});
