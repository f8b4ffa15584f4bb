// Which Markdown parser gives the plain text (SPEC 13)? Three candidates,
// each behind the same small walker from its tokens (or tree) to text:
// markdown-it (14 and 15), marked's lexer, and mdast-util-from-markdown with GFM (and,
// for MDX, with micromark's MDX extension). Correctness first: cases taken
// from real documentation trees (MDX, admonitions, HTML, entities, tables,
// deep nesting, broken MDX); then speed, on the bodies of the benchmark's
// site, as ratios to the fastest. The choice and its figures are in
// docs/spec.md (SPEC 13's decisions).
// Run: deno run -A bench/markdown_parsers.ts [bodies]
import { marked, type Token as MarkedToken } from "marked";
import MarkdownIt from "markdown-it";
import MarkdownIt15 from "markdown-it-15";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { mdxFromMarkdown } from "mdast-util-mdx";
import { gfm } from "micromark-extension-gfm";
import { mdxjs } from "micromark-extension-mdxjs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import process from "node:process";
import { generateSite } from "./site.ts";

type Extract = (markdown: string) => string;

const markdownIt = new MarkdownIt("default", { html: true, linkify: false, typographer: false });
const markdownIt15 = new MarkdownIt15("default", {
  html: true,
  linkify: false,
  typographer: false,
});
type ItToken = ReturnType<typeof markdownIt.parse>[number];
const itText = (tokens: readonly ItToken[]): string =>
  tokens.map((t) => {
    if (t.type === "inline") return itText(t.children ?? []);
    if (t.type === "image") return itText(t.children ?? []);
    if (t.type === "text" || t.type === "code_inline") return t.content;
    if (t.type === "fence" || t.type === "code_block") return t.content;
    if (t.type === "html_block") return t.content.replace(/<[^>]*>/g, " ");
    if (t.type === "softbreak" || t.type === "hardbreak") return " ";
    if (t.type.endsWith("_close") && t.block) return "\n";
    return "";
  }).join("");

const markedText = (tokens: readonly MarkedToken[]): string =>
  tokens.map((t): string => {
    if ("tokens" in t && t.tokens) {
      return markedText(t.tokens) + (t.type === "paragraph" ? "\n" : "");
    }
    if (t.type === "list") return markedText(t.items);
    if (t.type === "table") {
      return [t.header, ...t.rows].map((row) =>
        row.map((c: { tokens: MarkedToken[] }) => markedText(c.tokens)).join(" ")
      )
        .join("\n");
    }
    if (t.type === "html") return t.text.replace(/<[^>]*>/g, " ");
    if (t.type === "code" || t.type === "codespan" || t.type === "text") return t.text;
    if (t.type === "image") return t.text;
    if (t.type === "br") return " ";
    return "";
  }).join("");

// deno-lint-ignore no-explicit-any
type Node = { type: string; value?: string; alt?: string; children?: any[] };
const mdastText = (node: Node): string => {
  if (node.type === "html") return (node.value ?? "").replace(/<[^>]*>/g, " ");
  if (node.type === "mdxjsEsm" || node.type.startsWith("mdxFlowExpression")) return "";
  if (node.type === "image") return node.alt ?? "";
  if (node.value !== undefined) return node.value;
  const inner = (node.children ?? []).map(mdastText).join("");
  return node.type === "paragraph" || node.type === "heading" ? `${inner}\n` : inner;
};

const parsers: Record<string, { extract: Extract; parse: (m: string) => unknown }> = {
  "markdown-it 14.3": {
    parse: (m) => markdownIt.parse(m, {}),
    extract: (m) => itText(markdownIt.parse(m, {})),
  },
  "markdown-it 15.0": {
    parse: (m) => markdownIt15.parse(m, {}),
    extract: (m) => itText(markdownIt15.parse(m, {}) as ItToken[]),
  },
  "marked 18 (lexer)": {
    parse: (m) => marked.lexer(m, { gfm: true }),
    extract: (m) => markedText(marked.lexer(m, { gfm: true })),
  },
  "mdast-util-from-markdown 2 + GFM": {
    parse: (m) => fromMarkdown(m, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }),
    extract: (m) =>
      mdastText(
        fromMarkdown(m, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }) as Node,
      ),
  },
  "mdast-util-from-markdown 2 + GFM + MDX": {
    parse: (m) =>
      fromMarkdown(m, {
        extensions: [gfm(), mdxjs()],
        mdastExtensions: [gfmFromMarkdown(), mdxFromMarkdown()],
      }),
    extract: (m) =>
      mdastText(
        fromMarkdown(m, {
          extensions: [gfm(), mdxjs()],
          mdastExtensions: [gfmFromMarkdown(), mdxFromMarkdown()],
        }) as Node,
      ),
  },
};

/** A case from a real tree: what the text must hold and must not. */
interface Case {
  readonly name: string;
  readonly markdown: string;
  readonly has: readonly string[];
  readonly hasNot: readonly string[];
}

const deepList = Array.from({ length: 10_000 }, (_, i) => `${" ".repeat(i * 2)}- item`).join("\n");
const CASES: readonly Case[] = [
  {
    name: "entities decoded",
    markdown: "Tabs&nbsp;and&nbsp;spaces &amp; more &copy; 2026.",
    has: ["Tabs\u00a0and\u00a0spaces & more © 2026."],
    hasNot: ["&nbsp;", "&amp;"],
  },
  {
    name: "JSX blocks (Docusaurus tabs)",
    markdown:
      '<Tabs>\n  <TabItem value="npm" label="npm">\n\nRun the installer.\n\n  </TabItem>\n</Tabs>',
    has: ["Run the installer."],
    hasNot: ["<Tabs>", "TabItem"],
  },
  {
    name: "inline HTML keeps its text",
    markdown: "Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to copy.",
    has: ["Ctrl", "to copy."],
    hasNot: ["<kbd>"],
  },
  {
    name: "JSX fragment in a code span",
    markdown: "JSX fragment syntax (`<>`) groups children.",
    has: ["(<>)"],
    hasNot: [],
  },
  {
    name: "GFM table",
    markdown: "| option | default |\n| --- | --- |\n| watch | `false` |",
    has: ["watch", "false"],
    hasNot: ["| ---"],
  },
  {
    name: "image alt text, link text",
    markdown: "![Jekyll Sticker](/img/s.png) and [the guide](/guide).",
    has: ["Jekyll Sticker", "the guide"],
    hasNot: ["/img/s.png", "(/guide)"],
  },
  {
    name: "broken MDX (an unclosed tag, a brace)",
    markdown: "Use <div and {braces in prose.\n\nNext paragraph.",
    has: ["Next paragraph."],
    hasNot: [],
  },
  {
    name: "a 10,000-deep list",
    markdown: deepList,
    has: ["item"],
    hasNot: [],
  },
  {
    name: "10,000 nested quotes",
    markdown: ">".repeat(10_000) + " quoted",
    has: ["quoted"],
    hasNot: [],
  },
];

// Each case runs in a process of its own (512 MB of heap, 20 s): a parser
// that runs out of memory or time on a case fails that case, not the run.
const [flag, parserName, caseIndex] = process.argv.slice(2);
if (flag === "--case") {
  const c = CASES[Number(caseIndex)];
  const text = parsers[parserName].extract(c.markdown);
  const ok = c.has.every((s) => text.includes(s)) && !c.hasNot.some((s) => text.includes(s));
  console.log(ok ? "ok" : `got ${JSON.stringify(text.replace(/\s+/g, " ").slice(0, 50))}`);
  process.exit(0);
}
console.log(
  "Correctness (a case passes when the text holds what it must and nothing it must not):",
);
for (const name of Object.keys(parsers)) {
  const failed: string[] = [];
  for (let i = 0; i < CASES.length; i++) {
    const child = spawnSync(
      process.execPath,
      [
        "run",
        "-A",
        "--v8-flags=--max-old-space-size=512",
        fileURLToPath(import.meta.url),
        "--case",
        name,
        String(i),
      ],
      { encoding: "utf8", timeout: 20_000 },
    );
    const out = child.stdout.trim();
    if (out === "ok") continue;
    const why = child.error
      ? "over 20 s"
      : /out of memory|heap limit/i.test(child.stderr)
      ? "out of memory"
      : out ||
        // deno-lint-ignore no-control-regex
        /Uncaught (?:\(in promise\) )?(.{0,60})/.exec(child.stderr.replace(/\x1b\[[\d;]*m/g, ""))
          ?.[1];
    failed.push(`${CASES[i].name} (${why})`);
  }
  console.log(
    `- ${name}: ${CASES.length - failed.length}/${CASES.length}` +
      (failed.length ? `; fails: ${failed.join("; ")}` : ""),
  );
}

// Speed: every body of a benchmark site (half of them with real markup).
const count = Number(flag ?? 10_000);
const site = await mkdtemp(join(tmpdir(), "content-feed-md-"));
const bodies: string[] = [];
try {
  await generateSite(site, count, 42);
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (/\.(md|html)$/.test(entry.name)) {
        bodies.push((await readFile(path, "utf8")).replace(/^---\n[\s\S]*?\n---\n/, ""));
      }
    }
  };
  await walk(site);
} finally {
  await rm(site, { recursive: true, force: true });
}
const times: Record<string, number> = {};
for (let round = 0; round < 3; round++) {
  for (const [name, parser] of Object.entries(parsers)) {
    for (const body of bodies.slice(0, 300)) parser.parse(body); // warm up
    const start = performance.now();
    for (const body of bodies) parser.parse(body);
    const ms = performance.now() - start;
    times[name] = Math.min(times[name] ?? Infinity, ms);
  }
}
const fastest = Math.min(...Object.values(times));
console.log(`\nSpeed, ${bodies.length} bodies, best of 3 rounds, time ÷ the fastest:`);
for (const [name, ms] of Object.entries(times)) {
  console.log(
    `- ${name}: ${(ms / fastest).toFixed(2)}× (${
      (ms / bodies.length * 1000).toFixed(0)
    } µs a body)`,
  );
}
