// Issue 24: text and sections are linear in a body's size on every runtime,
// and making them never holds the event loop for long. The work is counted
// (what the parser was given, the checksums made), never timed.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mulberry32 } from "../bench/site.ts";
import { parsedBlocks, readBlocks } from "../src/text/blocks.ts";
import { readBlocksPaced } from "../src/text/segments.ts";
import { plainText, plainTextPaced } from "../src/text/plain_text.ts";
import { MAX_SECTIONS, sectionsOf } from "../src/text/sections.ts";
import { firstSpan, replaceSpans, withoutTemplateTags } from "../src/text/spans.ts";
import { textWork } from "../src/util/work_counts.ts";
import { createPacer } from "../src/util/concurrency.ts";
import { sha256HexSync } from "../src/util/sha256.ts";
import { md, withSite } from "./helpers.ts";

const DOCS_ONLY = `parameters:
  service.content.config:
    url: https://example.com
    plugins:
      docs: ~
      api: ~
`;

/** A body of `n` lines of one shape, as the issue's fuzz asks for. */
const SHAPES: Record<string, (n: number) => string> = {
  headings: (n) => lines(n, (i) => `## h${i}`),
  "list items": (n) => lines(n, (i) => `- item *${i}*`),
  "table rows": (n) => `| a | b |\n|---|---|\n${lines(n, (i) => `| ${i} | *x* |`)}`,
  "link definitions": (n) => `See [l1] and [l${n}].\n\n${lines(n, (i) => `[l${i}]: /u/${i}`)}`,
  "paragraphs with links": (n) => lines(n, (i) => `Part ${i} links [here](/p/${i}).\n`),
  // SPEC 16.4: what the preparation takes out, line by line.
  "JSX components with expressions": (n) =>
    lines(n, (i) => `<Card title="c${i}" icon={{ a: ">" }}>\n  Card ${i}.\n</Card>\n`),
  "components indented in a list": (n) =>
    lines(
      n,
      (i) =>
        `${i}. Step:\n\n    <Tabs>\n      <TabItem label="a">\n        \`x${i}\`\n      </TabItem>\n    </Tabs>\n`,
    ),
  "MkDocs admonitions and pymdownx blocks": (n) =>
    lines(
      n,
      (i) => (i % 2 ? `!!! note\n    Body ${i}.\n` : `/// tip\n    type: x\n\nBody ${i}.\n///\n`),
    ),
  "alerts, snippets and attribute lists": (n) =>
    lines(n, (i) => `> [!NOTE]\n> Note ${i}.\n\n--8<-- "s${i}.md"\n\nText.\n{ #a${i} .b }\n`),
  "template tags with quotes": (n) =>
    lines(n, (i) => `{% include "a.html" t="%} ${i}" %} text {{< tab "x" >}}in{{< /tab >}}\n`),
};

function lines(n: number, line: (i: number) => string): string {
  const out: string[] = [];
  for (let i = 1; i <= n; i++) out.push(line(i));
  return out.join("\n");
}

type Work = typeof textWork;

/** The work counted while `run` ran. */
async function workOf(run: () => Promise<unknown>): Promise<Work> {
  const before = { ...textWork };
  await run();
  const after = { ...textWork };
  for (const key of Object.keys(after) as (keyof Work)[]) after[key] -= before[key];
  return after;
}

/** What an item's text and sections cost at request time (as `feed/item_text.ts` makes them). */
async function textAndSections(body: string): Promise<{ sections: number }> {
  const pace = createPacer();
  const { blocks } = await readBlocksPaced(body, pace);
  await plainTextPaced(blocks, pace);
  const sections = await sectionsOf(blocks, "Title", { pace });
  return { sections: sections.length };
}

describe("SHA-256 of sections' texts (src/util/sha256.ts)", () => {
  it("equals node:crypto's for texts of every length, across its pieces and surrogate pairs", () => {
    const random = mulberry32(24);
    const alphabet = ["a", "é", "日", "😀", "\ud800", "\udc00", "\n", " "];
    for (let i = 0; i < 600; i++) {
      // Every length around the 64-byte blocks, then longer texts cut into 16K-unit pieces.
      const length = i < 200 ? i : i % 100 === 0 ? 40_000 + i : Math.floor(random() * 3000);
      let text = "";
      for (let c = 0; c < length; c++) text += alphabet[Math.floor(random() * alphabet.length)];
      const bytes = new TextEncoder().encode(text);
      assert.equal(sha256HexSync(text), createHash("sha256").update(bytes).digest("hex"));
    }
  });
});

describe("spans found in linear time (src/text/spans.ts)", () => {
  it("take out what the regular expressions they replace take out (20,000 random texts)", () => {
    const random = mulberry32(4242);
    const pieces = ["{", "}", "%", "<", ">", "-", "!", "/", "*", " ", "x", "\n", "{{", "}}", "{%"];
    pieces.push("%}", "<!--", "-->", "{/*", "*/}", "{{<", ">}}", "{{%", "%}}", "<h1>", "</h1>");
    pieces.push("<H1 a>", "</h1 >", "{% comment %}", "{%- endcomment -%}");
    const liquidOpen = /\{%-?\s*comment\s*-?%\}/g;
    const liquidClose = /\{%-?\s*endcomment\s*-?%\}/g;
    for (let i = 0; i < 20_000; i++) {
      const text = Array.from(
        { length: Math.floor(random() * 30) },
        () => pieces[Math.floor(random() * pieces.length)],
      ).join("");
      const what = JSON.stringify(text);
      assert.equal(replaceSpans(text, "<!--", "-->"), text.replace(/<!--[\s\S]*?-->/g, ""), what);
      assert.equal(replaceSpans(text, "<", ">", " "), text.replace(/<[^>]*>/g, " "), what);
      assert.equal(
        replaceSpans(text, "{/*", "*/}"),
        text.replace(/\{\/\*[\s\S]*?\*\/\}/g, ""),
        what,
      );
      assert.equal(
        replaceSpans(text, liquidOpen, liquidClose),
        text.replace(/\{%-?\s*comment\s*-?%\}[\s\S]*?\{%-?\s*endcomment\s*-?%\}/g, ""),
        what,
      );
      assert.equal(
        withoutTemplateTags(text),
        text.replace(/\{\{[<%][\s\S]*?[>%]\}\}|\{%[\s\S]*?%\}|\{\{[\s\S]*?\}\}/g, ""),
        what,
      );
      const h1 = /<h1\b[^<>]*>([\s\S]*?)<\/h1\s*>/i.exec(text);
      const span = firstSpan(text, /<h1\b[^<>]*>/gi, /<\/h1\s*>/gi);
      assert.deepEqual(
        span ? [text.slice(span[0], span[3]), text.slice(span[1], span[2])] : null,
        h1 ? [h1[0], h1[1]] : null,
        what,
      );
    }
  });
});

describe("linear text work (issue 24)", () => {
  it("makes one checksum per section, in turn: no crypto.subtle digest is left pending", async () => {
    // Before issue 24 every section's crypto.subtle.digest was started at once, and Deno's
    // digests slow with the number pending: 80,000 headings took 18 s.
    const subtle = crypto.subtle as { digest: SubtleCrypto["digest"] };
    const digest = subtle.digest;
    let pending = 0;
    let most = 0;
    subtle.digest = function (...args: Parameters<SubtleCrypto["digest"]>) {
      most = Math.max(most, ++pending);
      return digest.apply(this, args).finally(() => pending--);
    };
    try {
      const body = SHAPES.headings(9_000);
      let made = 0;
      const work = await workOf(async () => {
        made = (await textAndSections(body)).sections;
      });
      assert.equal(made, 9_000);
      assert.equal(work.digests, 9_000);
      assert.equal(most, 0);
    } finally {
      subtle.digest = digest;
    }
  });

  for (const [shape, bodyOf] of Object.entries(SHAPES)) {
    it(`work grows linearly with the body: ${shape}, 10^3 to 10^5`, async () => {
      const counts: { size: number; work: Work }[] = [];
      for (const n of [1_000, 10_000, 100_000]) {
        const body = bodyOf(n);
        counts.push({ size: body.length, work: await workOf(() => textAndSections(body)) });
      }
      for (const { size, work } of counts) {
        // Each character goes to the parser about once (a refused cut parses a segment again,
        // a plain run goes as a stand-in line), and to the inline parser once at most.
        assert.ok(work.parsedChars <= 2 * size + 1024, `${shape}: ${work.parsedChars} of ${size}`);
        assert.ok(work.inlineChars <= size, `${shape}: ${work.inlineChars} of ${size}`);
        assert.ok(work.tokens <= size, `${shape}: ${work.tokens} tokens for ${size}`);
        assert.ok(work.digests <= MAX_SECTIONS);
        assert.ok(work.digestedChars <= size, `${shape}: ${work.digestedChars} of ${size}`);
      }
      for (let i = 1; i < counts.length; i++) {
        const [smaller, larger] = [counts[i - 1].work, counts[i].work];
        // Checksums are bounded above (by the sections cap and the text); the parser's work
        // is not, so ten times the lines must cost about ten times as much (never a hundred).
        // The slack is for small counts (segments of 32 KB, rounded).
        for (const key of ["parses", "parsedChars", "tokens", "inlineChars", "segments"] as const) {
          assert.ok(
            larger[key] <= 12 * smaller[key] + 12,
            `${shape}, ${key}: ${smaller[key]} then ${larger[key]} for ten times the lines`,
          );
        }
      }
    });
  }

  it("work grows linearly with the body: 10^6 headings", async () => {
    const small = await workOf(() => textAndSections(SHAPES.headings(100_000)));
    const body = SHAPES.headings(1_000_000);
    let made = 0;
    const large = await workOf(async () => {
      made = (await textAndSections(body)).sections;
    });
    assert.equal(made, MAX_SECTIONS);
    assert.equal(large.digests, MAX_SECTIONS);
    assert.ok(large.digestedChars <= body.length);
    assert.ok(large.segments <= 12 * small.segments, `${small.segments} then ${large.segments}`);
  });

  it("reads a long body in segments exactly as in one piece (5,000 random bodies)", async () => {
    const random = mulberry32(2424);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
    // Lines of every kind of block, and of what the preparation follows across lines.
    const kinds = [
      "# Head",
      "## Sub {#id}",
      "Plain words here.",
      "text *em* [l](u) and [ref] and [x][ref]",
      "[ref]: /u",
      "[ref]:",
      '[x]: /y "t"',
      "- item",
      "* star",
      "+ plus",
      "1. one",
      "2) two",
      "  - nested",
      "  continuation",
      "> quote",
      "---",
      "===",
      "    code",
      "\tTab",
      " lead",
      "```",
      "```js",
      "~~~",
      "   ```",
      "<div>",
      "</div>",
      "<Tabs>",
      "<pre>",
      "</pre>",
      "<script>",
      "</script>",
      "<!-- c",
      "-->",
      "<!-- one -->",
      "<?php",
      "?>",
      "<![CDATA[",
      "]]>",
      "| a | b |",
      "|---|---|",
      "import x from 'y'",
      "export const a = 1",
      ":::note",
      ":::",
      "!!! note",
      "    admonition text",
      "??? tip",
      '=== "tab"',
      "[[toc]]",
      "{: .no_toc }",
      "{:toc}",
      "{/* c */}",
      "{/* open",
      "close */}",
      "{% highlight js %}",
      "{% endhighlight %}",
      "{% comment %}",
      "{% endcomment %}",
      "<<< @/x.js",
      "word[^1] more",
      "[^1]: note",
      // SPEC 16.4
      "</Tabs>",
      '  <TabItem label="a">',
      "  </TabItem>",
      "    <Tabs>",
      "        ```sh",
      "        npm i",
      "<Card",
      "  title={x}",
      "/>",
      '<Aside type="tip" data={{ a: "}" }}>',
      "</Aside>",
      "<>",
      "</>",
      "Use `<Tabs>` here",
      "<script setup>",
      "<style>",
      "</style>",
      "> [!NOTE]",
      '> [!div class="x"]',
      "        deeper",
      "???+ tip",
      "/// tip",
      "/// admonition | T",
      "    type: warning",
      "///",
      '--8<-- "a.md"',
      "--8<--",
      "snippets/x.md",
      "{* ../x.py hl[1] *}",
      "{!inc.md!}",
      "{ .md-button }",
      "{ #id }",
      "text{ #id } end",
      "{{< tab >}}",
      "{{< /tab >}}",
      "{{< figure",
      '  src="x"',
      ">}}",
      '{% include "a" t="%}" %}',
      "{# c #}",
      "a\r",
      "\r",
      "",
      "",
      "",
    ];
    const never = () => undefined;
    for (let i = 0; i < 5000; i++) {
      const body = Array.from({ length: 5 + Math.floor(random() * 60) }, () => pick(kinds))
        .join("\n");
      const whole = readBlocks(body);
      // Segments of one character at least: a cut wherever one may be.
      assert.deepEqual(await readBlocksPaced(body, never, 1), whole, JSON.stringify(body));
      assert.deepEqual(whole.blocks, parsedBlocks(body, { eager: true }), JSON.stringify(body));
    }
  });

  it("joins the plain text of many blocks a run at a time, as plainText does", async () => {
    const blocks = readBlocks(SHAPES["paragraphs with links"](10_000)).blocks;
    assert.equal(await plainTextPaced(blocks, createPacer(0)), plainText(blocks));
  });
});

describe("at most 10,000 sections an item (issue 24)", () => {
  it("folds the headings past the 10,000th section into it, and warns once per file version", async () => {
    const body = `Intro.\n\n${SHAPES.headings(MAX_SECTIONS + 50)}\n\nThe end.`;
    await withSite({ "docs/big.md": md({ title: "Big" }, body) }, {
      config: DOCS_ONLY,
    }, async (s) => {
      const { body: item } = await s.json("/docs/big.json?include=sections");
      const sections = item.sections as { heading: string; anchor: string; text: string }[];
      assert.equal(sections.length, MAX_SECTIONS);
      // The intro, then h1 … h9999; the last holds h9999's text and every heading after it.
      assert.equal(sections[0].anchor, "");
      const last = sections.at(-1)!;
      assert.equal(last.heading, `h${MAX_SECTIONS - 1}`);
      assert.equal(
        last.text,
        [...Array.from({ length: 51 }, (_, i) => `h${MAX_SECTIONS + i}`), "The end."].join(
          "\n\n",
        ),
      );
      const feed = await s.json("/api/content.json?include=sections");
      assert.equal(feed.body.data[0].sections.length, MAX_SECTIONS);
      const warnings = s.log.warnings().filter((w) => w.includes("sections"));
      assert.equal(warnings.length, 1, JSON.stringify(warnings));
      assert.match(warnings[0], /docs\/big\.md: 51 more headings than the 10000 sections/);
    });
  });

  it("makes exactly 10,000 sections of 10,000 headings, without a warning", async () => {
    let folded = -1;
    const blocks = readBlocks(SHAPES.headings(MAX_SECTIONS)).blocks;
    const sections = await sectionsOf(blocks, "T", { folded: (n) => folded = n });
    assert.equal(sections.length, MAX_SECTIONS);
    assert.equal(folded, -1);
  });
});

describe("the event loop stays free (issue 24)", () => {
  it("answers other requests while one makes the sections of a long body", async () => {
    // 300,000 headings (3 MB): many slices of work, on any machine.
    const body = `Intro.\n\n${SHAPES.headings(300_000)}`;
    await withSite(
      {
        "docs/big.md": md({ title: "Big" }, body),
        "docs/small.md": md({ title: "Small" }, "A small body of words. ".repeat(10)),
      },
      { config: DOCS_ONLY },
      async (s) => {
        let done = false;
        const big = s.request("/docs/big.json?include=sections").then(async (response) => {
          await response.arrayBuffer();
          done = true;
        });
        let answered = 0;
        // One small request after another, each with its own query (no cached answer).
        for (let i = 0; !done; i++) {
          const response = await s.request(`/docs/small.json?include=text&n=${i}`);
          assert.equal(response.status, 200);
          await response.arrayBuffer();
          if (!done) answered++;
          // The next request comes in a task of its own, as one from the network would.
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
        await big;
        assert.ok(answered >= 2, `${answered} small answers while the big one was made`);
      },
    );
  });
});
