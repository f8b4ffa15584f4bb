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
 * The writer of one content file of the bench's sites: realistic front
 * matter (title, date, authors, tags, some drafts) and a 150–900-word body
 * whose markup, for a share `markupShare` of bodies, is that of real
 * documentation. Every file it writes draws from `random`, so one seed gives
 * one site.
 */
function fileWriter(
  random: () => number,
  markupShare: number,
): (title: string, extra: string) => string {
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
  return file;
}

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
  const file = fileWriter(random, markupShare);
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
  await writeFiles(root, files);
  return [...files.keys()].filter((p) => p !== "services.yaml");
}

/** Writes each file (path relative to `root` → text), its folders made first, 64 at a time. */
async function writeFiles(root: string, files: ReadonlyMap<string, string>): Promise<void> {
  const dirs = new Set([...files.keys()].map((p) => dirname(join(root, p))));
  for (const dir of dirs) await mkdir(dir, { recursive: true });
  const entries = [...files];
  for (let i = 0; i < entries.length; i += 64) {
    await Promise.all(entries.slice(i, i + 64).map(([p, text]) => writeFile(join(root, p), text)));
  }
}

/** The versions of the Docusaurus site (versions.json, newest first); the docs folder is `current`. */
const DOCUSAURUS_VERSIONS = ["2.0", "1.0"];

/** Each of the six variants of a page: its folder in the Docusaurus layout and in the plain one. */
const VARIANT_FOLDERS: readonly { docusaurus: string; plain: string }[] = ["en", "fr"].flatMap(
  (lang) =>
    ["current", ...DOCUSAURUS_VERSIONS].map((version) => {
      const i18n = `i18n/${lang}/docusaurus-plugin-content-docs`;
      return {
        docusaurus: lang === "en"
          ? (version === "current" ? "docs" : `versioned_docs/version-${version}`)
          : `${i18n}/${version === "current" ? "current" : `version-${version}`}`,
        plain: `docs/${lang}/${version}`,
      };
    }),
);

/** The Docusaurus site's config: its docs with their versions and their French translation. */
export const DOCUSAURUS_CONFIG = `parameters:
  service.content.config:
    url: https://bench.example
    site_url: https://bench.example
    generator: docusaurus
    site: .
    locales: [en, fr]
    plugins: { docs: { path: docs, route: /docs }, api: ~, sitemap: ~, mcp: ~ }
`;

/** The same files as a plain site: one docs plugin, each variant a folder of it. */
export const PLAIN_DOCS_CONFIG = `parameters:
  service.content.config:
    url: https://bench.example
    plugins: { docs: ~, api: ~, sitemap: ~, mcp: ~ }
`;

/**
 * Writes the same `count` files twice (SPEC 16.3): under `docusaurusRoot` as a
 * Docusaurus site of docs in 3 versions (`docs/` = `current`, and the two of
 * `versions.json` in `versioned_docs/`) × 2 locales (`i18n/fr/…`), so 6
 * variants of `count / 6` pages, with `DOCUSAURUS_CONFIG`; under `plainRoot`
 * as a plain site whose docs plugin holds each variant in a folder of its
 * own (`docs/fr/2.0/…`), with `PLAIN_DOCS_CONFIG`. Each file has the same
 * bytes in both: only the layout and the generator differ. The pages are
 * laid out as the other bench site's docs (sections of 10, the pages beside
 * their section file); every variant of a page has a body of its own.
 */
export async function generateVariantSites(
  plainRoot: string,
  docusaurusRoot: string,
  count: number,
  seed = 42,
  markupShare = 0.5,
): Promise<void> {
  const file = fileWriter(mulberry32(seed), markupShare);
  const pages = Math.floor(count / VARIANT_FOLDERS.length);
  const docusaurus = new Map<string, string>([
    ["services.yaml", DOCUSAURUS_CONFIG],
    ["versions.json", JSON.stringify(DOCUSAURUS_VERSIONS)],
  ]);
  const plain = new Map<string, string>([["services.yaml", PLAIN_DOCS_CONFIG]]);
  for (const folder of VARIANT_FOLDERS) {
    for (let i = 0; i < pages; i++) {
      const section = Math.floor(i / 10);
      const [path, text] = i % 10 === 0
        ? [`section-${section}.md`, file(`Section ${section}`, "")]
        : [`section-${section}/page-${i}.md`, file(`Doc ${i}`, `sidebar_position: ${i % 10}\n`)];
      docusaurus.set(`${folder.docusaurus}/${path}`, text);
      plain.set(`${folder.plain}/${path}`, text);
    }
  }
  await writeFiles(docusaurusRoot, docusaurus);
  await writeFiles(plainRoot, plain);
}
