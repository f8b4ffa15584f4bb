import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { fold, slugify } from "../src/util/slugify.ts";
import { mulberry32 } from "../bench/site.ts";

describe("slugify (SPEC 4)", () => {
  it("gives the SPEC's two examples", () => {
    assert.equal(slugify("Guía Rápida"), "guia-rapida");
    assert.equal(slugify("C# & .NET"), "c-and-net");
  });

  it("lowercases and keeps ASCII letters and digits", () => {
    assert.equal(slugify("Hello World 2026"), "hello-world-2026");
    assert.equal(slugify("already-a-slug"), "already-a-slug");
    assert.equal(slugify("ABC123"), "abc123");
  });

  it("removes combining marks after NFKD", () => {
    assert.equal(slugify("Ünïcode Café"), "unicode-cafe");
    assert.equal(slugify("Ana Pérez"), "ana-perez");
    assert.equal(slugify("Jōji Tanaka"), "joji-tanaka");
    // Already decomposed input (e + U+0301) gives the same slug.
    assert.equal(slugify("Cafe\u0301"), "cafe");
    assert.equal(slugify("İstanbul"), "istanbul");
  });

  it("spells out @, & and %", () => {
    assert.equal(slugify("me@example.com"), "me-at-example-com");
    assert.equal(slugify("R&D"), "r-and-d");
    assert.equal(slugify("100%"), "100-percent");
    assert.equal(slugify("@deno"), "at-deno");
    assert.equal(slugify("Tom & Jerry"), "tom-and-jerry");
    assert.equal(slugify("50% off"), "50-percent-off");
  });

  it("collapses every run of other characters into one hyphen", () => {
    assert.equal(slugify("a  --  b"), "a-b");
    assert.equal(slugify("a_b.c/d\\e"), "a-b-c-d-e");
    assert.equal(slugify("one,two;three!four?"), "one-two-three-four");
    assert.equal(slugify("tab\tand\nnewline"), "tab-and-newline");
  });

  it("trims leading and trailing hyphens", () => {
    assert.equal(slugify("  --a--  "), "a");
    assert.equal(slugify("-- Hello! --"), "hello");
    assert.equal(slugify("#1"), "1");
  });

  it("decomposes compatibility characters with NFKD", () => {
    assert.equal(slugify("ﬁle"), "file"); // U+FB01 ligature
    assert.equal(slugify("ＡＢＣ"), "abc"); // full-width letters
    assert.equal(slugify("x²"), "x2");
    assert.equal(slugify("①"), "1");
    assert.equal(slugify("Ǆ"), "dz");
  });

  it("returns an empty string when nothing is left", () => {
    assert.equal(slugify(""), "");
    assert.equal(slugify("   "), "");
    assert.equal(slugify("!!!---???"), "");
    assert.equal(slugify("#"), "");
    // CJK letters are outside [a-z0-9]: they become nothing.
    assert.equal(slugify("日本語"), "");
    assert.equal(slugify("日本語 Guide"), "guide");
    assert.equal(slugify("Привет"), "");
  });
});

describe("fold", () => {
  it("removes accents and lowercases, keeping everything else", () => {
    assert.equal(fold("Ünïcode Café"), "unicode cafe");
    assert.equal(fold("CRÈME Brûlée, s'il vous plaît!"), "creme brulee, s'il vous plait!");
  });

  it("applies NFKD compatibility decomposition", () => {
    assert.equal(fold("ﬁ ＡＢＣ"), "fi abc");
  });

  it("keeps letters that have no decomposition", () => {
    assert.equal(fold("日本語"), "日本語");
    assert.equal(fold("Привет"), "привет");
  });

  it("folds every code point on its own: NFKD, marks removed, lowercase", () => {
    // The definition, one code point at a time (and a lone surrogate as itself).
    const reference = (text: string) =>
      [...text].map((c) => c.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase()).join("");
    const pool = [
      "a",
      "Z",
      " ",
      "\n",
      "-",
      "é",
      "É",
      "e\u0301",
      "\u0301",
      "ß",
      "ẞ",
      "İ",
      "ı",
      "Σ",
      "σ",
      "ς",
      "ﬁ",
      "Ａ",
      "¨",
      "´",
      "\u00a0",
      "①",
      "½",
      "Ǆ",
      "ǅ",
      "日",
      "한",
      "Ω",
      "Å",
      "😀",
      "𝒜",
      "\ud800",
      "\udc00",
      "Ⅻ",
      "ǰ",
      "\u0130",
      "Ö",
      "ø",
      "Ł",
      "ŉ",
    ];
    const random = mulberry32(5);
    for (let i = 0; i < 5000; i++) {
      let text = "";
      for (let n = Math.floor(random() * 12); n > 0; n--) {
        text += pool[Math.floor(random() * pool.length)];
      }
      assert.equal(fold(text), reference(text), JSON.stringify(text));
    }
  });

  it("folds composed and decomposed spellings to the same text", () => {
    assert.equal(fold("Cafe\u0301"), fold("Café"));
    assert.equal(fold("Cafe\u0301"), "cafe");
  });

  it("leaves the empty string empty", () => {
    assert.equal(fold(""), "");
  });
});
