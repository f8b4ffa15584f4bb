import { sha256HexSync } from "../util/sha256.ts";
import type { TextBlock } from "./blocks.ts";
import { textWork } from "../util/work_counts.ts";

/** One section of a body (SPEC 13): what a pipeline embeds, and re-embeds only when its checksum changes. */
export interface Section {
  /** The heading's explicit `{#id}`, else GitHub's rule, de-duplicated; `""` before the first heading. */
  readonly anchor: string;
  /** The heading's text (the item's title for the text before the first heading). */
  readonly heading: string;
  /**
   * Where the section sits: the enclosing level-1 heading (else the item's
   * title), then the enclosing level-2 heading, then its own heading; the
   * text before the first heading has the title alone.
   */
  readonly path: readonly string[];
  /** The heading's level, 1 to 3; 0 for the text before the first heading. */
  readonly level: number;
  /** The section's plain text: its blocks (level 4–6 headings among them), a blank line apart. */
  readonly text: string;
  /** SHA-256 of `text`, lowercase hex. */
  readonly checksum: string;
}

/**
 * A heading's anchor by GitHub's rule (SPEC 13): lowercase; characters other
 * than letters, digits, spaces, `-` and `_` removed; each space a `-`.
 *
 * @example
 * ```ts
 * import { githubAnchor } from "./sections.ts";
 * githubAnchor("Getting Started: the C# way!"); // "getting-started-the-c-way"
 * githubAnchor("Guía rápida"); // "guía-rápida"
 * ```
 */
export function githubAnchor(heading: string): string {
  return heading.toLowerCase().replace(/[^\p{L}\p{M}\p{N} _-]/gu, "").replaceAll(" ", "-");
}

/** Sections of one body at most: the text after the last heading that starts one stays in it. */
export const MAX_SECTIONS = 10_000;

/**
 * Splits a body's blocks into sections at headings of levels 1 to 3 (SPEC
 * 13), with anchors de-duplicated in order (`intro`, `intro-1`, `intro-2`)
 * and each text's SHA-256. The text before the first heading is a section
 * of level 0 with anchor `""`, left out when it has no text. A body makes
 * {@link MAX_SECTIONS} sections at most: the headings after that are text of
 * the last section (as headings of levels 4–6 are), and `folded` is told
 * how many. Time and memory are linear in the blocks' text: each checksum is
 * computed in turn, synchronously (`util/sha256.ts`), `pace` between them.
 *
 * @param title the item's title (the heading of the text before the first heading)
 * @param options `max`: sections at most (default {@link MAX_SECTIONS}); `folded`: told how
 * many headings were folded into the last section, when any were; `pace`: yields during the
 * work (a `Pacer` of `util/concurrency.ts`, for request-time callers)
 *
 * @example
 * ```ts
 * import { sectionsOf } from "./sections.ts";
 * import { textBlocks } from "./blocks.ts";
 * const sections = await sectionsOf(textBlocks("Intro.\n\n## Setup {#setup}\n\nRun it."), "Guide");
 * sections.map((s) => [s.anchor, s.path.join(" > "), s.text]);
 * // [["", "Guide", "Intro."], ["setup", "Guide > Setup", "Run it."]]
 * ```
 */
export async function sectionsOf(
  blocks: readonly TextBlock[],
  title: string,
  options: {
    readonly max?: number;
    readonly folded?: (headings: number) => void;
    readonly pace?: () => Promise<void> | undefined;
  } = {},
): Promise<Section[]> {
  const max = options.max ?? MAX_SECTIONS;
  const pace = options.pace ?? (() => undefined);
  const sections: Section[] = [];
  // As GitHub's slugger counts them: the second "intro" is "intro-1", and a
  // heading that is itself "intro-1" then gets "intro-1-1".
  const occurrences = new Map<string, number>();
  const unique = (anchor: string) => {
    let candidate = anchor;
    while (occurrences.has(candidate)) {
      const n = occurrences.get(anchor)! + 1;
      occurrences.set(anchor, n);
      candidate = `${anchor}-${n}`;
    }
    occurrences.set(candidate, 0);
    return candidate;
  };
  let h1: string | undefined;
  let h2: string | undefined;
  let current: Omit<Section, "checksum" | "text"> = {
    anchor: "",
    heading: title,
    path: [title],
    level: 0,
  };
  let texts: string[] = [];
  let folded = 0;
  /** Whether closing the current section keeps it: a heading's, or text before the first. */
  const kept = () =>
    current.level > 0 || texts.length > 1 || (texts.length === 1 && texts[0] !== "");
  const close = () => {
    if (kept()) {
      const text = texts.join("\n\n");
      textWork.digests++;
      textWork.digestedChars += text.length;
      sections.push({ ...current, text, checksum: sha256HexSync(text) });
    }
    texts = [];
  };
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b];
    if (b % 64 === 63) {
      const turn = pace();
      if (turn) await turn;
    }
    if (block.kind !== "heading" || block.level > 3) {
      texts.push(block.text);
      continue;
    }
    // The last section allowed holds the rest, its headings as text.
    if (sections.length + (kept() ? 1 : 0) >= max) {
      texts.push(block.text);
      folded++;
      continue;
    }
    close();
    const heading = block.text;
    let path: string[];
    if (block.level === 1) {
      h1 = heading;
      h2 = undefined;
      path = [heading];
    } else if (block.level === 2) {
      h2 = heading;
      path = [h1 ?? title, heading];
    } else path = [h1 ?? title, ...(h2 === undefined ? [] : [h2]), heading];
    current = {
      anchor: unique(block.anchor ?? githubAnchor(heading)),
      heading,
      path,
      level: block.level,
    };
  }
  close();
  if (folded > 0) options.folded?.(folded);
  return sections;
}
