import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { extract, FrontMatterError } from "../src/source/front_matter.ts";
import { parseBody, parseFile } from "../src/source/parse.ts";
import { mulberry32 } from "../bench/site.ts";

const meta = { plugin: "docs", path: "a.md", checksum: "", mtime: 0 };

/** What parseFile gave when it decoded the whole file and split the text. */
function reference(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { file: "docs/a.md", message: "not valid UTF-8 text; left out", reason: "not text" };
  }
  if (text.includes("\0")) {
    return { file: "docs/a.md", message: "binary file (NUL bytes); left out", reason: "not text" };
  }
  try {
    const { attrs, body } = extract(text);
    return { ...meta, attrs, body: body.trim() };
  } catch (error) {
    assert.ok(error instanceof FrontMatterError);
    const at = error.line ? ` (line ${error.line})` : "";
    return {
      file: "docs/a.md",
      ...(error.line ? { line: error.line } : {}),
      message: `${error.message}${at}; left out`,
      reason: "invalid front matter",
    };
  }
}

describe("parseFile", () => {
  it("splits front matter and body as extract() does on the whole text, whatever the bytes", () => {
    const random = mulberry32(11);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
    const pieces = [
      "---",
      "--- ",
      "---\t",
      "----",
      "---x",
      " ---",
      "title: Hi",
      "title: Zoë",
      "tags: [a, b]",
      "a:\n  - x",
      "bad: [",
      "Body text.",
      "café",
      "Jōji",
      "",
      "   ",
      "\0",
      "\u2028",
      "\u00a0",
      "\ufffd", // valid UTF-8 (EF BF BD) that a lenient decoder also gives for bad bytes
      "<p>Guía <b>rápida</b></p>",
      "don't",
      "it’s",
      "😀 𝒜b ok",
      "a<b",
      "x>y",
      "١٢٣",
    ];
    const breaks = ["\n", "\r\n", "\r", "\u2028"];
    const encoder = new TextEncoder();
    for (let i = 0; i < 20000; i++) {
      let text = random() < 0.1 ? "\uFEFF" : "";
      const lines = 1 + Math.floor(random() * 8);
      for (let l = 0; l < lines; l++) {
        text += (l === 0 && random() < 0.7 ? "---" : pick(pieces)) +
          pick(breaks.slice(0, random() < 0.8 ? 2 : 4));
      }
      let bytes = encoder.encode(text);
      if (random() < 0.03) bytes = Uint8Array.from([...bytes, 0xff]); // not UTF-8
      if (random() < 0.03) {
        // A bad sequence anywhere: a lone lead byte, an encoded surrogate, a point past U+10FFFF.
        const bad = pick([[0xc3], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x80]]);
        const at = Math.floor(random() * (bytes.length + 1));
        bytes = Uint8Array.from([...bytes.subarray(0, at), ...bad, ...bytes.subarray(at)]);
      }
      const parsed = parseFile(bytes, meta, "docs/a.md");
      // What the item route reads again is the body the index was built from.
      if ("body" in parsed) assert.equal(parseBody(bytes), parsed.body, JSON.stringify(text));
      assert.deepEqual(parsed, reference(bytes), JSON.stringify(text));
    }
  });

  it("decodes the front matter and the body apart, splitting on the bytes", () => {
    // Multi-byte characters before the closing fence: a split at a character
    // offset instead of a byte offset would cut the body short or shift it.
    const bytes = new TextEncoder().encode(
      "---\nauthor: Jōji 日本語 😀\n---\n\nÉté: body text here.\n",
    );
    const parsed = parseFile(bytes, meta, "docs/a.md");
    assert.ok("body" in parsed);
    assert.equal(parsed.body, "Été: body text here.");
    assert.deepEqual(parsed.attrs, { author: "Jōji 日本語 😀" });
    assert.equal(parseBody(bytes), parsed.body);
  });
});

describe("bodyRange", () => {
  it("finds the body's bytes exactly where parseBody finds its text (5,000 random files)", async () => {
    const { bodyRange, parseBody } = await import("../src/source/parse.ts");
    const { mulberry32 } = await import("../bench/site.ts");
    const random = mulberry32(41);
    const pieces = [
      "a",
      "é",
      "日本",
      "😀",
      " ",
      "\t",
      "\n",
      "\r\n",
      "\u00a0",
      "\u2003",
      "\u3000",
      "\ufeff",
      "\u2028",
      "\u0085",
      "\u180e",
      "---",
      "title: x",
      "\v",
      "\f",
      "\u200b",
    ];
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    for (let i = 0; i < 5000; i++) {
      let body = "";
      for (let n = Math.floor(random() * 10); n > 0; n--) {
        body += pieces[Math.floor(random() * pieces.length)];
      }
      const text = random() < 0.8
        ? `---\ntitle: T\n---${random() < 0.5 ? "\r\n" : "\n"}${body}`
        : body;
      const bytes = encoder.encode(text);
      const range = bodyRange(bytes);
      if (range === undefined) continue;
      assert.equal(
        decoder.decode(bytes.subarray(range[0], range[1])),
        parseBody(bytes),
        JSON.stringify(text),
      );
    }
  });
});
