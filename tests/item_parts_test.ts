import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { cutDescription, describeProse, preview } from "../src/fields/preview.ts";
import { readingTime } from "../src/fields/reading_time.ts";
import { countWords } from "../src/text/words.ts";
import { parseAuthors, parseTags } from "../src/fields/names.ts";
import { textBlocks } from "../src/text/blocks.ts";
import { collapseProse, plainText } from "../src/text/plain_text.ts";
import { mulberry32 } from "../bench/site.ts";
import { piecesText } from "./helpers.ts";

describe("preview", () => {
  it("takes the first paragraph only", () => {
    assert.equal(preview("First paragraph.\n\nSecond paragraph."), "First paragraph.");
    assert.equal(preview("First\r\n\r\nSecond"), "First");
    assert.equal(preview("First\n   \nSecond"), "First");
  });

  it("skips leading blank lines", () => {
    assert.equal(preview("\n\n  \nHello there.\n\nNext"), "Hello there.");
  });

  it("joins the lines of the paragraph with one space", () => {
    assert.equal(preview("Line one\nline two\r\n   line three"), "Line one line two line three");
  });

  it("skips headings: they are not prose (SPEC 4)", () => {
    assert.equal(preview("# Getting started\n\nMore text"), "More text");
    assert.equal(preview("### Deep heading"), "");
  });

  it("reads a list as one paragraph, without its markers", () => {
    assert.equal(
      preview("* star item\n* star two\n  more of two\n\nNext"),
      "star item star two more of two",
    );
    assert.equal(preview("1. first\n12. twelfth\n## heading"), "first twelfth");
  });

  it("keeps # and numbers that are not markers", () => {
    assert.equal(preview("#hashtag stays"), "#hashtag stays");
    assert.equal(preview("1.5 million users"), "1.5 million users");
    assert.equal(preview("C# is a language"), "C# is a language");
  });

  it("removes inline HTML tags, and skips HTML blocks (not prose)", () => {
    assert.equal(preview("Hello <strong>world</strong>!"), "Hello world!");
    assert.equal(preview('<img src="a.png" alt="x"> Caption'), "Caption");
    assert.equal(preview("<p>Hello <strong>world</strong>!</p>\n\nProse."), "Prose.");
  });

  it("collapses runs of whitespace", () => {
    assert.equal(preview("a   b\t\tc"), "a b c");
  });

  it("gives an empty string for an empty body", () => {
    assert.equal(preview(""), "");
    assert.equal(preview("  \n\n "), "");
  });

  it("does not cut a text of exactly 300 characters", () => {
    const text = `${"x".repeat(295)} abcd`;
    assert.equal(text.length, 300);
    assert.equal(preview(text), text);
  });

  it("cuts at the first space after 300 characters and appends ...", () => {
    const text = `${"x".repeat(298)} abcdef ghi jkl`;
    assert.equal(preview(text), `${"x".repeat(298)} abcdef...`);
  });

  it("cuts at a space right after the 300th character", () => {
    const text = `${"y".repeat(300)} rest of it`;
    assert.equal(preview(text), `${"y".repeat(300)}...`);
  });

  it("cuts a long text with no space after 300 characters at 300 characters", () => {
    const text = `${"x".repeat(10)} ${"z".repeat(400)}`;
    assert.equal(preview(text), `${text.slice(0, 300)}...`);
    // Characters, not UTF-16 code units: CJK prose has no spaces to cut at.
    const cjk = "日本語の文章".repeat(100);
    assert.equal(preview(cjk), `${[...cjk].slice(0, 300).join("")}...`);
  });

  it("measures the 300 after markers and tags are removed", () => {
    const words = `${"w".repeat(296)} abc`; // 300 characters once the markers are gone
    assert.equal(preview(`**<b>${words}</b>**`), words);
  });

  it("counts characters, not UTF-16 code units", () => {
    // 200 emoji + " end" is 204 characters: short enough to be kept whole.
    const text = `${"😀".repeat(200)} end`;
    assert.equal(preview(text), text);
  });

  it("cuts long accented text by characters", () => {
    const text = `${"é".repeat(300)} más texto`;
    assert.equal(preview(text), `${"é".repeat(300)}...`);
  });
});

describe("describeProse", () => {
  it("cuts a long paragraph as collapsing it whole and cutting would (3,000 random paragraphs)", () => {
    const random = mulberry32(41);
    const pieces = [
      "word",
      "é",
      "日本語",
      "😀",
      "\ud83d",
      " ",
      "   ",
      "\n",
      "\t\r\n ",
      "\u00a0",
      "\u3000",
      "x".repeat(120),
      " ".repeat(200),
      "\n".repeat(50),
    ];
    let cut = 0;
    for (let i = 0; i < 3000; i++) {
      const prose = piecesText(random, pieces, 400);
      const max = [300, 10, 1, 64][i % 4];
      const expected = cutDescription(collapseProse(prose), max);
      assert.equal(describeProse(prose, max), expected, JSON.stringify(prose));
      if (expected.endsWith("...")) cut++;
    }
    assert.ok(cut > 1000, `only ${cut} paragraphs were cut`);
  });

  it("cuts at the space after the 300th character however long the paragraph is", () => {
    const prose = `${"word ".repeat(100_000)}end`;
    assert.equal(describeProse(prose), `${"word ".repeat(60)}word...`);
    assert.equal(describeProse(`  ${"日".repeat(5000)} tail`), `${"日".repeat(5000)}...`);
  });
});

describe("countWords", () => {
  it("counts Unicode word runs", () => {
    assert.equal(countWords("one two  three\nfour"), 4);
    assert.equal(countWords("Guía rápida, ¿qué tal?"), 4);
    assert.equal(countWords("Привет мир"), 2);
  });

  it("counts nothing in an empty or symbol-only body", () => {
    assert.equal(countWords(""), 0);
    assert.equal(countWords("  --- *** ### "), 0);
  });

  it("keeps apostrophes inside words", () => {
    assert.equal(countWords("don't panic, it’s fine"), 4);
  });

  it("splits on hyphens and punctuation", () => {
    assert.equal(countWords("well-known e.g. a/b"), 6);
  });

  it("counts numbers as words", () => {
    assert.equal(countWords("Version 2 has 300 fixes"), 5);
  });

  it("counts the words of a body's plain text: HTML tags and their attributes are not text", () => {
    const words = (body: string) => countWords(plainText(textBlocks(body)));
    assert.equal(words("<p>Guía rápida, don't panic</p>"), 4);
    assert.equal(words('<img src="a b c.png" alt="many words here">'), 0);
    assert.equal(words("one<br>two"), 2);
  });

  it("counts combining marks as part of a word", () => {
    assert.equal(countWords("Cafe\u0301 cre\u0300me"), 2);
  });
});

describe("readingTime", () => {
  it("is at least one minute", () => {
    assert.equal(readingTime(0), 1);
    assert.equal(readingTime(1), 1);
  });

  it("rounds up at 200 words a minute", () => {
    assert.equal(readingTime(200), 1);
    assert.equal(readingTime(201), 2);
    assert.equal(readingTime(400), 2);
    assert.equal(readingTime(401), 3);
    assert.equal(readingTime(1000), 5);
  });

  it("matches countWords on a real body", () => {
    assert.equal(readingTime(countWords("word ".repeat(450))), 3);
  });
});

describe("parseAuthors", () => {
  it("reads a single string", () => {
    const result = parseAuthors("Ana Pérez");
    assert.deepEqual(result.value, [{ name: "Ana Pérez", slug: "ana-perez" }]);
    assert.equal(result.problem, undefined);
  });

  it("reads a list of strings, trimming names", () => {
    const result = parseAuthors(["Ana Pérez", "  Bob Smith  "]);
    assert.deepEqual(result.value, [
      { name: "Ana Pérez", slug: "ana-perez" },
      { name: "Bob Smith", slug: "bob-smith" },
    ]);
    assert.equal(result.problem, undefined);
  });

  it("reads a list of {name, slug}, slug defaulting to slugify(name)", () => {
    const result = parseAuthors([
      { name: "Jōji Tanaka", slug: "joji" },
      { name: "Ana Pérez" },
      { name: "Zoë", slug: null },
    ]);
    assert.deepEqual(result.value, [
      { name: "Jōji Tanaka", slug: "joji" },
      { name: "Ana Pérez", slug: "ana-perez" },
      { name: "Zoë", slug: "zoe" },
    ]);
    assert.equal(result.problem, undefined);
  });

  it("mixes strings and maps in one list", () => {
    assert.deepEqual(parseAuthors(["Ana", { name: "Bob", slug: "bobby" }]).value, [
      { name: "Ana", slug: "ana" },
      { name: "Bob", slug: "bobby" },
    ]);
  });

  it("drops duplicates by slug, keeping the first", () => {
    const result = parseAuthors(["Ana Pérez", "ana perez", { name: "Other", slug: "ana-perez" }]);
    assert.deepEqual(result.value, [{ name: "Ana Pérez", slug: "ana-perez" }]);
  });

  it("drops entries that are not names and says why", () => {
    const result = parseAuthors(["Ana", { slug: "x" }, { name: 3 }, true, "!!!", ["nested"]]);
    assert.deepEqual(result.value, [{ name: "Ana", slug: "ana" }]);
    assert.equal(typeof result.problem, "string");
  });

  it("reads one {name} map as one author", () => {
    assert.deepEqual(parseAuthors({ name: "Ana Pérez" }), {
      value: [{ name: "Ana Pérez", slug: "ana-perez" }],
      problem: undefined,
    });
  });

  it("rejects a value that is neither a string, a map nor a list", () => {
    for (const value of [42, true]) {
      const result = parseAuthors(value);
      assert.deepEqual(result.value, [], JSON.stringify(value));
      assert.equal(typeof result.problem, "string", JSON.stringify(value));
    }
  });

  it("gives an empty list for an empty list", () => {
    const result = parseAuthors([]);
    assert.deepEqual(result.value, []);
    assert.equal(result.problem, undefined);
  });
});

describe("parseTags", () => {
  it("reads a single string as one tag", () => {
    const result = parseTags("Deno");
    assert.deepEqual(result.value, [{ name: "Deno", slug: "deno" }]);
    assert.equal(result.problem, undefined);
  });

  it("reads a list of strings, slugifying each", () => {
    const result = parseTags(["Deno", "Guía Rápida", "C# & .NET"]);
    assert.deepEqual(result.value, [
      { name: "Deno", slug: "deno" },
      { name: "Guía Rápida", slug: "guia-rapida" },
      { name: "C# & .NET", slug: "c-and-net" },
    ]);
    assert.equal(result.problem, undefined);
  });

  it("drops duplicates by slug, keeping the first spelling", () => {
    assert.deepEqual(parseTags(["Deno", "deno", "DENO!", "Guía", "guia"]).value, [
      { name: "Deno", slug: "deno" },
      { name: "Guía", slug: "guia" },
    ]);
  });

  it("reads numbers in the list as tag names", () => {
    assert.deepEqual(parseTags([2026, "Deno"]).value, [
      { name: "2026", slug: "2026" },
      { name: "Deno", slug: "deno" },
    ]);
  });

  it("drops maps and empty slugs and says why", () => {
    const result = parseTags(["Deno", { name: "Bun" }, "", "日本語", null]);
    assert.deepEqual(result.value, [{ name: "Deno", slug: "deno" }]);
    assert.equal(typeof result.problem, "string");
  });

  it("rejects a value that is neither a string, a number nor a list, saying what it got", () => {
    for (const value of [{ deno: true }, true]) {
      const result = parseTags(value);
      assert.deepEqual(result.value, [], JSON.stringify(value));
      assert.match(result.problem ?? "", /got /, JSON.stringify(value));
    }
  });

  it("reads one number as one tag, as one string is", () => {
    assert.deepEqual(parseTags(2024).value, [{ name: "2024", slug: "2024" }]);
  });
});
