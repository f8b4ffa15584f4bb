// SPEC 13: plain text from a real Markdown parser. What is dropped, what is
// kept; the fast path for plain bodies against the parser; and a fuzz that
// no body can crash or stall the extraction.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mulberry32 } from "../bench/site.ts";
import { piecesText } from "./helpers.ts";
import { parsedBlocks, type TextBlock, textBlocks } from "../src/text/blocks.ts";
import { collapseProse, firstHeading, firstProse, plainText } from "../src/text/plain_text.ts";
import { isSimpleBody, parseSimpleBlocks } from "../src/text/simple_blocks.ts";
import { summarizeText } from "../src/text/summary.ts";
import { textWork } from "../src/util/work_counts.ts";
import { countWords, plainWords } from "../src/text/words.ts";

const text = (body: string) => plainText(textBlocks(body));

/** The text work counted while `run` ran (src/util/work_counts.ts). */
function workOf(run: () => void): typeof textWork {
  const before = { ...textWork };
  run();
  const work = { ...textWork };
  for (const key of Object.keys(work) as (keyof typeof textWork)[]) work[key] -= before[key];
  return work;
}

describe("plain text (SPEC 13)", () => {
  it("drops Markdown syntax, keeps link text and image alt text, decodes entities", () => {
    assert.equal(
      text(
        "# Title\n\nSome *emphasis*, **strong**, ~~gone~~ and [a link](https://x.example).\n\n" +
          "![The alt](/img.png) &amp; &nbsp;&#233;",
      ),
      "Title\n\nSome emphasis, strong, gone and a link.\n\nThe alt & \u00a0é",
    );
  });

  it("keeps code blocks as their text, and code spans", () => {
    assert.equal(
      text("Run `npm i`:\n\n```sh\nnpm i && npm start\n```\n\n    indented code"),
      "Run npm i:\n\nnpm i && npm start\n\nindented code",
    );
  });

  it("drops MDX import and export lines and JSX tags, keeping their text children", () => {
    const body = [
      'import Tabs from "@theme/Tabs";',
      "import TabItem from '@theme/TabItem';",
      "export const meta = {",
      "  title: 'x',",
      "};",
      "",
      "Intro paragraph.",
      "",
      "<Tabs>",
      '  <TabItem value="npm">',
      "    Install with npm.",
      "  </TabItem>",
      "</Tabs>",
    ].join("\n");
    assert.equal(text(body), "Intro paragraph.\n\nInstall with npm.");
  });

  it("keeps a paragraph that only starts like an import", () => {
    assert.equal(text("Import your data, then export it."), "Import your data, then export it.");
    assert.equal(text("import this\n\nand that"), "import this\n\nand that");
  });

  it("drops admonition fences and keeps what they hold", () => {
    assert.equal(text(":::tip Pro tip\n\nUse **it**.\n\n:::\n\nAfter."), "Use it.\n\nAfter.");
    assert.equal(text("::: warning\nCareful\n:::"), "Careful");
  });

  it("drops Liquid and Hugo template tags", () => {
    assert.equal(
      text(
        "{% for post in site.posts -%}\n  {{ post.title }}\n{%- endfor %}\n\nHello {{ site.name }}!",
      ),
      "Hello !",
    );
    assert.equal(
      text('{{< figure src="x.png" >}}\n\nA {{% notice %}}note{{% /notice %}}.'),
      "A note.",
    );
  });

  it("keeps a link's text when its destination is a template tag (Hugo ref, Jekyll baseurl)", () => {
    assert.equal(
      text('See the [releases page]({{< ref "/docs/cli" >}}) or [this]({{ site.baseurl }}/x).'),
      "See the releases page or this.",
    );
    const [image, prose] = textBlocks(
      "![A brass lantern]({{ site.baseurl }}/img/l.jpg)\n\nReal text.",
    );
    assert.deepEqual([image.text, image.prose, prose.text], [
      "A brass lantern",
      false,
      "Real text.",
    ]);
  });

  it("keeps template tags in code spans and inside {% raw %}, as written", () => {
    assert.equal(
      text("Write `{{ page.title }}` here {{ gone }}; {% raw %}{{ kept }}{% endraw %}."),
      "Write {{ page.title }} here ; {{ kept }}.",
    );
  });

  it("drops MDX comments, tables of contents and attribute-list lines", () => {
    assert.equal(text("{/* Keep this list sorted. */}\n\nProse."), "Prose.");
    assert.equal(text("{/* a\nlong\ncomment */}\nProse."), "Prose.");
    assert.equal(text("[[toc]]\n\n[TOC]\n\nProse."), "Prose.");
    assert.equal(text("* TOC\n{:toc}\n\nProse."), "Prose.");
    assert.equal(text("# Title\n{: .no_toc }\n\nProse."), "Title\n\nProse.");
    // In code they stay.
    assert.equal(text("```mdx\n{/* c */}\n[[toc]]\n```"), "{/* c */}\n[[toc]]");
  });

  it("reads Jekyll's and Hugo's highlight blocks as code, and drops Liquid comments", () => {
    assert.deepEqual(
      textBlocks("{% highlight ruby %}\ndef hi\nend\n{% endhighlight %}\n\nProse.").map((b) => [
        b.kind,
        b.text,
      ]),
      [["code", "def hi\nend"], ["paragraph", "Prose."]],
    );
    assert.deepEqual(
      textBlocks("{{< highlight go >}}\nfunc main() {}\n{{< /highlight >}}\n\nProse.").map((b) =>
        b.kind
      ),
      ["code", "paragraph"],
    );
    assert.equal(text("{% comment %}\nhidden\n\nstill hidden\n{% endcomment %}\nShown."), "Shown.");
    assert.equal(text("A {% comment %}hidden{% endcomment %}B."), "A B.");
  });

  it("drops MkDocs tab lines, VitePress snippet imports, footnote markers and class lists", () => {
    assert.equal(text('=== "curl"\n\n    Run curl.\n\nAfter.'), "Run curl.\n\nAfter.");
    assert.equal(text("<<< @/snippets/a.js\n\nAfter."), "After.");
    assert.equal(
      text("Whale oil[^1] burned.\n\n[^1]: Mostly sperm whale."),
      "Whale oil burned.\n\nMostly sperm whale.",
    );
    assert.equal(text("[Start](/s){: .btn } now { .md-button } ok."), "Start now  ok.");
    // In code they stay.
    assert.equal(text("Use `[^a-z]` and `{ .x }`."), "Use [^a-z] and { .x }.");
  });

  it("reads MkDocs admonitions as their indented content, not as code", () => {
    const blocks = textBlocks('!!! note "Beta"\n    The API is in beta.\n\nAfter.');
    assert.deepEqual(blocks.map((b) => [b.kind, b.text]), [
      ["paragraph", "The API is in beta."],
      ["paragraph", "After."],
    ]);
  });

  it("drops HTML tags, keeps their text, and parts words at breaks", () => {
    assert.equal(text("<div>\n  <p>Inside <b>bold</b></p>\n</div>"), "Inside bold");
    assert.equal(text("one<br>two and <kbd>Ctrl</kbd>"), "one\ntwo and Ctrl");
  });

  it("keeps text that only looks like a tag (JSX fragments in prose)", () => {
    assert.equal(
      text("JSX fragment syntax (`<>`) and <> too"),
      "JSX fragment syntax (<>) and <> too",
    );
  });

  it("reads GFM tables cell by cell", () => {
    assert.equal(text("| a | b |\n|---|---|\n| 1 | *2* |"), "a b\n1 2");
  });

  it("separates paragraphs with a blank line, keeping a paragraph's lines", () => {
    assert.equal(text("one\ntwo\n\nthree"), "one\ntwo\n\nthree");
  });
});

describe("headings and prose (SPEC 4 title and description)", () => {
  it("finds the first level-1 heading, Markdown or HTML, without its {#anchor}", () => {
    assert.equal(firstHeading(textBlocks("Text.\n\n## Two\n\n# One {#one}")), "One");
    assert.equal(
      firstHeading(textBlocks('<h1 class="t">Big <em>Title</em></h1>\n\nx')),
      "Big Title",
    );
    assert.equal(firstHeading(textBlocks("## Only two")), undefined);
  });

  it("takes the first prose paragraph: not headings, code, HTML, tables, images or templates", () => {
    const body = [
      "# Title",
      "",
      "![Logo](/logo.png)",
      "",
      "{% include note.html %}",
      "",
      "```js\ncode()\n```",
      "",
      "<div>html</div>",
      "",
      "| t | t |\n|---|---|\n| 1 | 2 |",
      "",
      "The *first* real paragraph,",
      "on two lines.",
    ].join("\n");
    assert.equal(firstProse(textBlocks(body)), "The first real paragraph, on two lines.");
  });

  it("gives no description for a heading-only or image-only body", () => {
    assert.equal(firstProse(textBlocks("# Only a heading")), "");
    assert.equal(firstProse(textBlocks("![a](b.png)\n\n![c](d.png)")), "");
    assert.equal(firstProse(textBlocks("")), "");
  });

  it("keeps an explicit heading anchor apart from the heading's text", () => {
    const [heading] = textBlocks("## Getting started {#start}");
    assert.deepEqual([heading.text, heading.anchor], ["Getting started", "start"]);
  });

  it("reads attribute lists after a heading: { #id .class }, {: #id}, {.class} (no anchor)", () => {
    const blocks = textBlocks("# Rooms { #rooms-api }\n\n## Other {: #x .c}\n\n## Plain {.cls}");
    assert.deepEqual(blocks.map((b) => [b.text, b.anchor]), [
      ["Rooms", "rooms-api"],
      ["Other", "x"],
      ["Plain", undefined],
    ]);
    // Braces that are not an attribute list are text.
    assert.equal(textBlocks("## Using {braces} here {ok}")[0].text, "Using {braces} here {ok}");
  });
});

/** Random bodies: mostly plain prose and headings, with markup now and then. */
function randomBody(random: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const words = [
    "lorem",
    "ipsum",
    "café",
    "naïve",
    "über",
    "日本語",
    "word",
    "a",
    "don't",
    "x-y",
    "3.5",
    "C#",
    "é",
    "ok.",
  ];
  const markup = [
    "*em*",
    "[l](u)",
    "<b>",
    "&amp;",
    "`c`",
    "{x}",
    "_u_",
    "\\*",
    "|",
    "~",
    "!",
    ">",
    ":",
  ];
  const lines: string[] = [];
  for (let l = 0, n = 1 + Math.floor(random() * 10); l < n; l++) {
    const kind = random();
    const sentence = () =>
      Array.from(
        { length: 1 + Math.floor(random() * 8) },
        () => random() < 0.05 ? pick(markup) : pick(words),
      )
        .join(random() < 0.1 ? "  " : " ");
    if (kind < 0.15) lines.push("");
    else if (kind < 0.25) {
      lines.push(
        `${"#".repeat(1 + Math.floor(random() * 7))}${random() < 0.9 ? " " : ""}${sentence()}`,
      );
    } else if (kind < 0.3) {
      lines.push(
        pick([
          "- item",
          "1. one",
          "> quote",
          "---",
          "===",
          "    code",
          " lead",
          "import x from 'y'",
          ":::note",
          "!!! note",
          "??? tip",
          "[[toc]]",
          "{: .no_toc }",
          "{/* c */}",
          "```",
          "~~~js",
          "<div>",
          "</div>",
          "<Tabs>",
          "<pre>",
          "<!-- c",
          "-->",
          "[ref]: /u",
          "{% highlight js %}",
          "{% endhighlight %}",
          "{% comment %}",
          "{% endcomment %}",
          '=== "tab"',
          "<<< @/x.js",
          "word[^1] more",
          "[^1]: note",
          "text{: .btn } end",
          "see [ref]",
          "| a | b |",
          "|---|---|",
          "  - nested",
          "\tTab",
          "a\u00a0b",
          "line  ",
        ]),
      );
    } else lines.push(sentence() + (random() < 0.1 ? " " : ""));
  }
  return lines.join("\n");
}

describe("the fast path for plain bodies", () => {
  it("counts a plain body's words in the scan that finds it plain (100,000 random texts)", () => {
    const random = mulberry32(31);
    const pieces = [
      "a",
      "word ",
      "é",
      "don't",
      " ",
      "  ",
      "\n",
      "\n\n",
      "#",
      "## ",
      "####### ",
      "#a",
      "# x #",
      "-",
      "+",
      "=",
      ">",
      ":",
      "!",
      "!!!",
      "??",
      "???",
      "1.",
      "12)",
      "1234567890.",
      "3",
      "import",
      "imports",
      "import_",
      "export",
      "exported",
      "[",
      "`",
      "*",
      "_",
      "~",
      "&",
      "{",
      "|",
      "\\",
      "\t",
      "\r",
      "\u00a0",
      "\u2003",
      "\u3000",
      "\ufeff",
      "日本",
      "😀",
    ];
    for (let i = 0; i < 100_000; i++) {
      const text = piecesText(random, pieces, 8);
      const expected = isSimpleBody(text) ? countWords(text) : -1;
      assert.equal(plainWords(text), expected, JSON.stringify(text));
    }
  });

  it("counts the word runs a Unicode property regex finds, apostrophes joining (100,000 random texts)", () => {
    // The reference SPEC 4 describes: runs of letters, marks and digits, an apostrophe
    // between two of them inside the word.
    const reference = (text: string) =>
      text.match(/[\p{L}\p{M}\p{N}]+(?:['\u2019][\p{L}\p{M}\p{N}]+)*/gu)?.length ?? 0;
    const random = mulberry32(37);
    const pieces = [
      "a",
      "Z9",
      " ",
      "\n",
      "'",
      "\u2019",
      "don't",
      "''",
      "é",
      "ß",
      "²",
      "½",
      "×",
      "\u00a0",
      "\u3000",
      "日本",
      "Привет",
      "Cafe\u0301",
      "😀",
      "𝐀",
      "\ud83d",
      "\ude00",
      "-",
      "_",
      "#",
    ];
    for (let i = 0; i < 100_000; i++) {
      const text = piecesText(random, pieces, 10);
      assert.equal(countWords(text), reference(text), JSON.stringify(text));
    }
  });

  it("gives exactly the parser's blocks wherever it answers (20,000 random bodies)", () => {
    const random = mulberry32(13);
    let answered = 0;
    for (let i = 0; i < 20_000; i++) {
      const body = randomBody(random);
      const fast = parseSimpleBlocks(body);
      if (fast === undefined) continue;
      answered++;
      assert.deepEqual(fast, parsedBlocks(body, { eager: true }), JSON.stringify(body));
    }
    assert.ok(answered > 5000, `the fast path answered only ${answered} bodies`);
  });

  it("reads plain runs without the parser, the rest with it, exactly as the parser reads the whole (20,000 random bodies)", () => {
    const random = mulberry32(23);
    for (let i = 0; i < 20_000; i++) {
      const body = randomBody(random);
      assert.deepEqual(textBlocks(body), parsedBlocks(body, { eager: true }), JSON.stringify(body));
    }
  });

  it("reads plain paragraphs without the inline parser exactly as the parser does (20,000 random bodies)", () => {
    const random = mulberry32(19);
    for (let i = 0; i < 20_000; i++) {
      const body = randomBody(random);
      assert.deepEqual(
        parsedBlocks(body),
        parsedBlocks(body, { eager: true }),
        JSON.stringify(body),
      );
    }
  });

  it("summarizes a body as its parsed blocks do: heading, first prose, words (20,000 random bodies)", () => {
    const random = mulberry32(17);
    for (let i = 0; i < 20_000; i++) {
      const body = randomBody(random);
      const blocks = parsedBlocks(body, { eager: true });
      const summary = summarizeText(body);
      assert.deepEqual(
        // The first prose paragraph as a description is cut from it: its white space collapsed.
        { ...summary, prose: collapseProse(summary.prose) },
        {
          heading: firstHeading(blocks),
          prose: firstProse(blocks),
          words: countWords(plainText(blocks)),
        },
        JSON.stringify(body),
      );
    }
  });
});

/** A block as SPEC 13 shapes it: a known kind, a level only on headings, prose only in paragraphs. */
function assertWellFormed(block: TextBlock, what: string): void {
  assert.ok(["heading", "paragraph", "code", "html", "table"].includes(block.kind), what);
  assert.equal(typeof block.text, "string", what);
  if (block.kind === "heading") assert.ok(block.level >= 1 && block.level <= 6, what);
  else assert.equal(block.level, 0, what);
  if (block.prose) assert.equal(block.kind, "paragraph", what);
  assert.ok(block.anchor === undefined || block.kind === "heading", what);
}

/** A block with each NUL as the parser writes it (U+FFFD, as CommonMark asks). */
function nulAsParsed(block: TextBlock): TextBlock {
  if (!block.text.includes("\u0000")) return block;
  return { ...block, text: block.text.replaceAll("\u0000", "\uFFFD") };
}

describe("no body can crash or stall the extraction (fuzz)", () => {
  // Work is counted, not timed (a loaded CI machine makes any time budget flaky): what the
  // parser is given and gives back stays within a constant of the body's size, and a run ten
  // times as long costs about ten times as much. Regular expressions' own steps are not
  // counted; bench/text_shapes.ts times long runs of each fragment for those.
  it("gives the whole parse's blocks for 2,000 random fragments of Markdown, HTML and MDX, with work linear in their size", () => {
    const random = mulberry32(29);
    const pieces = [
      "# ",
      "## ",
      "- ",
      "1. ",
      "> ",
      "```",
      "~~~",
      "    ",
      "\t",
      "\n",
      "\n\n",
      "*",
      "**",
      "_",
      "`",
      "[",
      "]",
      "(",
      ")",
      "![",
      "<",
      ">",
      "</",
      "<div>",
      "</div>",
      "<Tabs>",
      "<>",
      "</>",
      "{",
      "}",
      "{#id}",
      "{%",
      "%}",
      "{{",
      "}}",
      "{{<",
      ">}}",
      ":::",
      ":::note",
      '!!! note "T"\n    ',
      "[[toc]]",
      "{:toc}",
      "{: #a .b}",
      "{/*",
      "*/}",
      "]({{ x }}",
      "{% raw %}",
      "{% endraw %}",
      "import x from 'y'\n",
      "export const a = {\n",
      "&",
      "&amp;",
      "&#",
      ";",
      "|",
      "|---|",
      "\\",
      "<!--",
      "-->",
      "word ",
      "é",
      "😀",
      "\u0000",
      "\u2028",
      "https://x.example ",
      // SPEC 16.4
      "<Card a={",
      '{ b: ">" }}>',
      "<Tabs\n",
      "> [!NOTE]\n",
      "/// tip\n",
      "///\n",
      "    type: x\n",
      "--8<--\n",
      '--8<-- "a"\n',
      "{* a *}",
      "{!a!}",
      "{ .b }",
      "{{< f\n",
      '{% "%}" %}',
      "{#",
      "#}",
      "<script>",
      "</script>",
      "???+ tip\n    ",
    ];
    for (let i = 0; i < 2000; i++) {
      let body = "";
      const length = Math.floor(random() * 400);
      for (let p = 0; p < length; p++) body += pieces[Math.floor(random() * pieces.length)];
      if (i % 100 === 0) body = pieces[Math.floor(random() * pieces.length)].repeat(5000); // deep or long runs
      let blocks: TextBlock[] = [];
      const work = workOf(() => blocks = textBlocks(body));
      const size = Math.max(body.length, 64);
      const what = `${JSON.stringify(work)} for ${body.length}: ${
        JSON.stringify(body.slice(0, 80))
      }`;
      // A plain run goes to the parser as a stand-in line; a body whose stand-ins do not
      // hold is parsed once more, whole.
      assert.ok(work.parsedChars <= 3 * size, what);
      assert.ok(work.inlineChars <= size, what);
      assert.ok(work.tokens <= 4 * size, what);
      // What it returns is well formed, and what the whole parse gives, but for a NUL: a plain
      // run keeps it where the parser writes U+FFFD (no file with one reaches the text layer:
      // the source leaves it out as binary).
      for (const block of blocks) assertWellFormed(block, what);
      assert.deepEqual(blocks.map(nulAsParsed), parsedBlocks(body, { eager: true }), what);
    }
    // Runs of each fragment, 500 and 5,000 long: ten times the work at most, with some slack.
    for (const piece of pieces) {
      const short = workOf(() => textBlocks(piece.repeat(500)));
      const long = workOf(() => textBlocks(piece.repeat(5000)));
      for (const key of ["parses", "parsedChars", "inlineChars", "tokens"] as const) {
        assert.ok(
          long[key] <= 12 * short[key] + 12,
          `${JSON.stringify(piece)}, ${key}: ${short[key]} then ${long[key]}`,
        );
      }
    }
  });
});
