// Seeded synthetic sites for the benchmark and the load test: the five
// plugins, realistic front matter, 150–900-word bodies (half of them with
// the markup of real documentation), some drafts.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** A small fast PRNG, so the same seed gives the same site. */
export function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ("lorem ipsum content feed index vector embedding search deno bun node markdown " +
  "front matter guide lesson module course question answer page release deploy edge cache " +
  "café naïve über guía rápida système réseau données schnell straße")
  .split(" ");
const TAGS = Array.from({ length: 60 }, (_, i) => `Topic ${i}`);
const AUTHORS = ["Ana Pérez", "Jōji Tanaka", "Zoë Müller", "François Dubois", "Li Wei", "Sam Lee"];

export const CONFIG = `parameters:
  service.content.config:
    url: https://bench.example
    plugins: { academy: ~, blog: ~, docs: ~, faq: ~, pages: ~, api: ~, sitemap: ~, mcp: ~ }
`;

/**
 * Writes a site of about `count` content files under `root`; returns the
 * file paths. `markupShare` is the share of bodies that hold the markup of real
 * documentation (the rest are plain paragraphs under a heading).
 */
export async function generateSite(
  root: string,
  count: number,
  seed = 42,
  markupShare = 0.5,
): Promise<string[]> {
  const random = mulberry32(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const sentence = (words: number) =>
    Array.from({ length: words }, () => pick(WORDS)).join(" ") + ".";
  // Markup that real documentation holds, in about half the bodies: emphasis,
  // code spans, links, lists, fenced code, tables, images, admonitions and
  // HTML. The rest are plain paragraphs under a heading (the loader's fast
  // path), so a cold start pays for the parser on a realistic share of files.
  const markup = [
    () =>
      `Read **${pick(WORDS)}** and \`${pick(WORDS)}()\` in [the ${pick(WORDS)} guide](/docs/${
        pick(WORDS)
      }).`,
    () => Array.from({ length: 3 + Math.floor(random() * 4) }, () => `- ${sentence(6)}`).join("\n"),
    () => `1. ${sentence(5)}\n2. ${sentence(7)}\n3. ${sentence(4)}`,
    () =>
      "```ts\nconst " + pick(WORDS).replace(/\W/g, "x") + ' = await load("' + pick(WORDS) +
      '");\n```',
    () =>
      `| option | default |\n| --- | --- |\n| ${pick(WORDS)} | \`true\` |\n| ${
        pick(WORDS)
      } | \`10\` |`,
    () => `![${pick(WORDS)} diagram](/img/${pick(WORDS).replace(/\W/g, "")}.png)`,
    () => `:::tip\n${sentence(10)}\n:::`,
    () => `<div class="note">\n<p>${sentence(8)} &amp; more.</p>\n</div>`,
    () => `## ${pick(WORDS)} ${pick(WORDS)}`,
  ];
  const body = () => {
    const words = 150 + Math.floor(random() * 750);
    const rich = random() < markupShare;
    const out: string[] = [`# ${pick(WORDS)} ${pick(WORDS)}`, ""];
    let line: string[] = [];
    for (let i = 0; i < words; i++) {
      line.push(pick(WORDS));
      if (line.length === 12) {
        out.push(line.join(" ") + ".");
        line = [];
        if (random() < 0.15) {
          out.push("");
          if (rich && random() < 0.5) out.push(pick(markup)(), "");
        }
      }
    }
    out.push(line.join(" "));
    return out.join("\n");
  };
  const file = (title: string, extra: string) => {
    const tags = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(TAGS));
    const year = 2020 + Math.floor(random() * 7);
    const month = String(1 + Math.floor(random() * 12)).padStart(2, "0");
    const day = String(1 + Math.floor(random() * 28)).padStart(2, "0");
    return `---
title: "${title}"
date: ${year}-${month}-${day}
authors: [${pick(AUTHORS)}]
tags: [${[...new Set(tags)].join(", ")}]
${random() < 0.04 ? "draft: true\n" : ""}${extra}---
${body()}
`;
  };
  const files = new Map<string, string>([["services.yaml", CONFIG]]);
  const share = Math.floor(count / 5);
  // academy: courses of 4 modules of 5 lessons (25 files a course)
  for (let c = 0; files.size - 1 < share; c++) {
    files.set(`academy/course-${c}.md`, file(`Course ${c}`, ""));
    for (let m = 0; m < 4; m++) {
      files.set(
        `academy/course-${c}/module-${m}.md`,
        file(`Module ${c}.${m}`, `sidebar_position: ${m}\n`),
      );
      for (let l = 0; l < 5; l++) {
        files.set(
          `academy/course-${c}/module-${m}/lesson-${l}.md`,
          file(`Lesson ${c}.${m}.${l}`, `sidebar_position: ${l}\n`),
        );
      }
    }
  }
  for (let i = 0; i < share; i++) {
    const day = `${2020 + (i % 7)}-${String(1 + (i % 12)).padStart(2, "0")}-${
      String(1 + (i % 28)).padStart(2, "0")
    }`;
    files.set(`blog/${day}-post-${i}.md`, file(`Post ${i}`, ""));
  }
  for (let i = 0; i < share; i++) {
    // docs: sections of 10 with the pages beside their section file
    const section = Math.floor(i / 10);
    if (i % 10 === 0) files.set(`docs/section-${section}.md`, file(`Section ${section}`, ""));
    else {files.set(
        `docs/section-${section}/page-${i}.md`,
        file(`Doc ${i}`, `sidebar_position: ${i % 10}\n`),
      );}
  }
  for (let i = 0; i < share; i++) {
    const group = Math.floor(i / 20);
    if (i % 20 === 0) files.set(`faq/group-${group}.md`, file(`Group ${group}`, ""));
    else files.set(`faq/group-${group}/question-${i}.md`, file(`Question ${i}?`, ""));
  }
  for (let i = 0; files.size - 1 < count; i++) {
    files.set(
      `pages/page-${i}.${i % 10 === 0 ? "html" : "md"}`,
      file(`Page ${i}`, `order: ${i}\n`),
    );
  }
  const dirs = new Set([...files.keys()].map((p) => dirname(join(root, p))));
  for (const dir of dirs) await mkdir(dir, { recursive: true });
  const entries = [...files];
  for (let i = 0; i < entries.length; i += 64) {
    await Promise.all(entries.slice(i, i + 64).map(([p, text]) => writeFile(join(root, p), text)));
  }
  return entries.map(([p]) => p).filter((p) => p !== "services.yaml");
}
