import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { extract, FrontMatterError } from "../src/source/front_matter.ts";

/** Runs extract() and returns the FrontMatterError it must throw. */
function failure(text: string): FrontMatterError {
  try {
    extract(text);
  } catch (error) {
    assert.ok(error instanceof FrontMatterError, `expected a FrontMatterError, got ${error}`);
    assert.equal(error.name, "FrontMatterError");
    return error;
  }
  assert.fail(`extract(${JSON.stringify(text)}) did not throw`);
}

describe("extract", () => {
  it("splits attrs, body and the raw front matter", () => {
    assert.deepEqual(extract("---\ntitle: Hi\ntags: [a, b]\n---\nHello\n"), {
      attrs: { title: "Hi", tags: ["a", "b"] },
      body: "Hello\n",
      frontMatter: "title: Hi\ntags: [a, b]",
    });
  });

  it("keeps the body's own leading blank line (only the closing line's newline goes)", () => {
    assert.deepEqual(extract("---\ntitle: Hi\n---\n\nHello"), {
      attrs: { title: "Hi" },
      body: "\nHello",
      frontMatter: "title: Hi",
    });
  });

  it("accepts a closing line at the very end of the file", () => {
    assert.deepEqual(extract("---\ntitle: Hi\n---"), {
      attrs: { title: "Hi" },
      body: "",
      frontMatter: "title: Hi",
    });
  });

  it("treats a file without front matter as all body", () => {
    assert.deepEqual(extract("# Title\n\nText\n"), {
      attrs: {},
      body: "# Title\n\nText\n",
      frontMatter: "",
    });
    assert.deepEqual(extract(""), { attrs: {}, body: "", frontMatter: "" });
  });

  it("does not take a --- that is not on the first line as front matter", () => {
    const text = "Intro\n---\ntitle: no\n---\nMore";
    assert.deepEqual(extract(text), { attrs: {}, body: text, frontMatter: "" });
  });

  it("accepts CRLF line endings", () => {
    assert.deepEqual(extract("---\r\ntitle: Hi\r\ndraft: true\r\n---\r\nBody\r\nline 2\r\n"), {
      attrs: { title: "Hi", draft: true },
      body: "Body\r\nline 2\r\n",
      frontMatter: "title: Hi\r\ndraft: true",
    });
  });

  it("accepts a UTF-8 BOM before the front matter", () => {
    assert.deepEqual(extract("\uFEFF---\ntitle: Hi\n---\nBody"), {
      attrs: { title: "Hi" },
      body: "Body",
      frontMatter: "title: Hi",
    });
  });

  it("drops the BOM of a file without front matter", () => {
    assert.deepEqual(extract("\uFEFFJust text"), {
      attrs: {},
      body: "Just text",
      frontMatter: "",
    });
  });

  it("accepts a BOM and CRLF together", () => {
    assert.deepEqual(extract("\uFEFF---\r\ntitle: Hi\r\n---\r\nBody"), {
      attrs: { title: "Hi" },
      body: "Body",
      frontMatter: "title: Hi",
    });
  });

  it("reads an empty front matter block as an empty map", () => {
    assert.deepEqual(extract("---\n---\nBody"), { attrs: {}, body: "Body", frontMatter: "" });
    assert.deepEqual(extract("---\n\n---\nBody"), { attrs: {}, body: "Body", frontMatter: "" });
    assert.deepEqual(extract("---\n  \t\n---\nBody"), {
      attrs: {},
      body: "Body",
      frontMatter: "  \t",
    });
    assert.deepEqual(extract("---\r\n---\r\nBody"), { attrs: {}, body: "Body", frontMatter: "" });
    assert.deepEqual(extract("---\n# only a comment\n---\nBody"), {
      attrs: {},
      body: "Body",
      frontMatter: "# only a comment",
    });
  });

  it("leaves a --- inside the body after the front matter alone", () => {
    assert.deepEqual(extract("---\na: 1\n---\nText\n---\nMore\n---\n"), {
      attrs: { a: 1 },
      body: "Text\n---\nMore\n---\n",
      frontMatter: "a: 1",
    });
  });

  it("accepts trailing spaces on the delimiter lines", () => {
    assert.deepEqual(extract("--- \ntitle: Hi\n---\t\nBody"), {
      attrs: { title: "Hi" },
      body: "Body",
      frontMatter: "title: Hi",
    });
  });

  it("throws on an unterminated front matter block", () => {
    const error = failure("---\ntitle: Hi\n\nBody without a closing line\n");
    assert.match(error.message, /closing/);
    assert.equal(failure("---\n").name, "FrontMatterError");
  });

  it("throws on invalid YAML with the file line of the error", () => {
    // Line 1 is the opening ---, so the bad line "desc: a: b" is line 3 of the file.
    const error = failure("---\ntitle: Hi\ndesc: a: b\n---\nBody");
    assert.equal(error.line, 3);
    assert.match(error.message, /YAML/);
  });

  it("counts lines correctly further down the block", () => {
    const error = failure(
      "---\ntitle: Hi\ndate: 2026-01-15\ntags:\n  - a\ntitle: again\n---\nBody",
    );
    assert.equal(error.line, 6); // duplicated key on the 6th line of the file
  });

  it("counts lines correctly with a BOM and CRLF", () => {
    const error = failure("\uFEFF---\r\ntitle: Hi\r\n  bad: x\r\n---\r\nBody");
    assert.equal(error.line, 3);
  });

  it("throws when the front matter is a list", () => {
    const error = failure("---\n- a\n- b\n---\nBody");
    assert.match(error.message, /map/);
  });

  it("throws when the front matter is a scalar", () => {
    assert.match(failure("---\njust a string\n---\nBody").message, /map/);
    assert.match(failure("---\n42\n---\nBody").message, /map/);
  });

  it("keeps dates as strings and types the other scalars (core schema)", () => {
    const { attrs } = extract(
      "---\ndate: 2026-01-15\nlast_update: 2026-03-02T10:00:00Z\nbad: 2026-02-30\n" +
        "time: 4\nratio: 1.5\ndraft: false\nanswer: yes\nnothing: ~\n---\n",
    );
    assert.deepEqual(attrs, {
      date: "2026-01-15",
      last_update: "2026-03-02T10:00:00Z",
      bad: "2026-02-30",
      time: 4,
      ratio: 1.5,
      draft: false,
      answer: "yes",
      nothing: null,
    });
  });
});

describe("front matter that js-yaml 3 reads, read alike (SPEC 16.4)", () => {
  // Each value is what js-yaml 3 (gray-matter's parser: Docusaurus, Eleventy, Astro, VitePress)
  // gives for the block; js-yaml 5 and `yaml` reject or read each differently on their own.
  const cases: [string, string, Record<string, unknown>][] = [
    ["merge keys", "base: &b\n  x: 1\nother:\n  <<: *b\n  y: 2", {
      base: { x: 1 },
      other: { x: 1, y: 2 },
    }],
    [
      "a list of merges, the map's own keys first",
      "a: &a {x: 1}\nb: &b {y: 2}\nc:\n  x: 5\n  <<: [*a, *b]",
      {
        a: { x: 1 },
        b: { y: 2 },
        c: { x: 5, y: 2 },
      },
    ],
    ["a tab before a key is no indentation", "a:\n\tb: 1\n\tc: 2", { a: null, b: 1, c: 2 }],
    ["a tab after spaces before an item", "tags:\n  \t- a", { tags: ["a"] }],
    ["a tab before the first key", "\ttitle: Hi", { title: "Hi" }],
    ["a tab line after a map", "a:\n  b: 1\n\tc: 2", { a: { b: 1 }, c: 2 }],
    ["a line of tabs after a block scalar's indicator", "description:\t|\n\t\ntitle: T", {
      description: "",
      title: "T",
    }],
    ["a flow list going on at the left margin", "tags: [a,\nb]", { tags: ["a", "b"] }],
    ["a flow map going on at the left margin", "author: {name: Ana,\nurl: 'https://a.dev'}", {
      author: { name: "Ana", url: "https://a.dev" },
    }],
    ["a tab after the colon", "title:\tHello", { title: "Hello" }],
    ["CRLF line endings", "title: Hi\r\ndescription: There", { title: "Hi", description: "There" }],
    ["a colon without a space in a value", "title: a:b", { title: "a:b" }],
    ["odd indentation of a nested map", "a:\n   b: 1\n   c: 2", { a: { b: 1, c: 2 } }],
    ["--- inside a block scalar", "desc: |\n  a\n  ---\n  b", { desc: "a\n---\nb\n" }],
  ];
  for (const [what, block, value] of cases) {
    it(`reads ${what}`, () => {
      assert.deepEqual(extract(`---\n${block}\n---\nBody`).attrs, value);
    });
  }

  it("still rejects what js-yaml 3 rejects too: duplicate keys, an @ or a backtick starting a scalar", () => {
    for (const block of ["title: A\ntitle: B", "author: @alice", "title: `code` thing"]) {
      assert.match(failure(`---\n${block}\n---\nBody`).message, /invalid YAML/);
    }
  });

  it("names an unknown alias as such, not as an alias bomb", () => {
    const error = failure("---\ntitle: *nope\n---\nBody");
    assert.doesNotMatch(error.message, /expand past/);
  });
});
