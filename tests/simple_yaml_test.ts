import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { CORE_SCHEMA, load } from "js-yaml";
import { parseSimpleYaml } from "../src/source/simple_yaml.ts";
import { mulberry32 } from "../bench/site.ts";

/** What js-yaml (core schema) makes of a block, or the error class when it refuses. */
function reference(text: string): unknown {
  try {
    return load(text, { schema: CORE_SCHEMA });
  } catch {
    return "refused";
  }
}

describe("parseSimpleYaml", () => {
  it("reads the front matter people write", () => {
    assert.deepEqual(
      parseSimpleYaml(
        'title: "Getting started: a guide"\ndate: 2026-01-15\nauthors: [Ana Pérez]\n' +
          "tags: [Deno, 'Bun', \"Node\"]\nsidebar_position: 2\ndraft: false\nimage:\n" +
          "summary: It's C# & .NET, 100% done?\nlast_update: 2026-03-02T10:00:00Z\n" +
          "authors_list:\n  - Ana\n  - Li Wei\nempty: []\ntime: ~",
      ),
      {
        title: "Getting started: a guide",
        date: "2026-01-15",
        authors: ["Ana Pérez"],
        tags: ["Deno", "Bun", "Node"],
        sidebar_position: 2,
        draft: false,
        image: null,
        summary: "It's C# & .NET, 100% done?",
        last_update: "2026-03-02T10:00:00Z",
        authors_list: ["Ana", "Li Wei"],
        empty: [],
        time: null,
      },
    );
  });

  it("takes every block the benchmark's site generator and the sample content write", () => {
    // If these fell back to js-yaml the fast path would be a fast path for nothing.
    for (
      const text of [
        'title: "Post 1"\ndate: 2022-09-20\nauthors: [Li Wei]\ntags: [Topic 50, Topic 3]\ndraft: true\nsidebar_position: 3',
        "title: What is Lumen?\nauthor: Jōji Tanaka\ntags: [Theming, CSS]\norder: 1\nunlisted: true",
      ]
    ) {
      assert.notEqual(parseSimpleYaml(text), undefined, text);
    }
  });

  it("leaves everything outside its subset to js-yaml", () => {
    for (
      const text of [
        "a:\n  b: 1", // nested map
        "a: x\n  continued", // multi-line scalar
        "# a comment\na: 1",
        "a: x # trailing comment",
        "a: &anchor x\nb: *anchor",
        "a: !!str 1",
        'a: "tab\\tescape"',
        "a: 'it''s'",
        "a: 1\na: 2", // duplicate key: js-yaml refuses it
        "a: 1e3",
        "a: -1",
        "a: 0x1F",
        "a: 1_000",
        "a: .inf",
        "a: 007",
        "a: [x, , y]",
        "a: [[x]]",
        "a: {b: 1}",
        "a: |\n  text",
        "a:\n  - x\n - y", // inconsistent indentation
        "a:\n- - x",
        "a: x\r\nb: y",
        "a:\tx",
        "__proto__: 1",
        "true: 1",
        "a:b",
        "- x",
      ]
    ) {
      assert.equal(parseSimpleYaml(text), undefined, text);
    }
  });

  it("never disagrees with js-yaml on random blocks", () => {
    const random = mulberry32(7);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
    const keys = ["title", "date", "tags", "a", "b_c", "x-y", "null", "true", "__proto__", "T1"];
    const scalars = [
      "x",
      "Hello world",
      "C#",
      "it's",
      "a: b",
      "a:b",
      "x #c",
      "x#c",
      "#c",
      "-x",
      "- x",
      "?x",
      ":x",
      "x:",
      "~",
      "null",
      "Null",
      "NULL",
      "nULL",
      "true",
      "True",
      "TRUE",
      "tRue",
      "false",
      "yes",
      "0",
      "00",
      "7",
      "-7",
      "+7",
      "1.5",
      "1.",
      ".5",
      "1e3",
      "1_000",
      "0x1F",
      "0o7",
      "0b1",
      "123456789012345",
      "1234567890123456789",
      "2026-01-15",
      "2026-1-5",
      "2026-01-15T10:00:00Z",
      "2026-01-15 10:00",
      ".inf",
      ".NaN",
      '"q"',
      '"q',
      '"a\\"b"',
      '"a\\nb"',
      "'s'",
      "'s''t'",
      "'s",
      '""',
      "''",
      "[a, b]",
      "[a,b]",
      "[]",
      "[ ]",
      "[a, , b]",
      "[a, b,]",
      "[[a]]",
      "[\"a\", 'b']",
      "[a: b]",
      "[a #b]",
      "{a: 1}",
      "&x y",
      "*x",
      "!!str 1",
      "|",
      ">",
      "%x",
      "@x",
      "`x`",
      "é ü ß",
      "😀",
      "a  b",
      "x ",
      "Jōji",
      "a\tb",
      "100%",
      "[Topic 1, Topic 2]",
      "-",
      "--",
      "...",
      "<<",
    ];
    const line = (): string => {
      const r = random();
      if (r < 0.6) return `${pick(keys)}: ${pick(scalars)}`;
      if (r < 0.7) return `${pick(keys)}:`;
      if (r < 0.85) return `${" ".repeat(Math.floor(random() * 3))}- ${pick(scalars)}`;
      if (r < 0.9) return "";
      return pick(["# c", "  b: 1", "a:b", "  more", "key:  spaced", "\tt: 1", "a: x\r"]);
    };
    let taken = 0;
    for (let i = 0; i < 40000; i++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 5) }, line).join("\n");
      const fast = parseSimpleYaml(text);
      if (fast === undefined) continue;
      taken++;
      assert.deepEqual(fast, reference(text), JSON.stringify(text));
    }
    assert.ok(taken > 3000, `only ${taken} of 40,000 blocks took the fast path`);
  });
});
