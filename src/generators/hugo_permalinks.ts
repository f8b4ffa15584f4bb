// Hugo's path text and `permalinks` patterns: `paths.Sanitize` and
// `MakePathSanitized` (helpers/path.go: spaces to `-`, only letters, digits,
// marks and `._~#+@-/\` kept, lower-cased unless `disablePathToLower`), and
// the tokens of resources/page/permalinks.go (the "Tokens" list of
// gohugo.io/configuration/permalinks), Go date layouts included.
import { type DateParts, MONTHS, pad, weekday, WEEKDAYS, yearDay } from "./date_parts.ts";
import type { HugoData } from "./types.ts";

/**
 * Hugo's `paths.Sanitize`: characters outside letters, digits, marks,
 * `. / \ _ # + ~ - @` and `%XX` escapes are dropped; whitespace after kept
 * text becomes one `-` before the next kept character.
 *
 * @example
 * ```ts
 * import { hugoSanitize } from "./hugo_permalinks.ts";
 * hugoSanitize("Vim (text editor)"); // "Vim-text-editor"
 * hugoSanitize("v3.5/how_to_debug x"); // "v3.5/how_to_debug-x"
 * ```
 */
export function hugoSanitize(text: string): string {
  let out = "";
  let hyphenNext = false;
  let wasHyphen = false;
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    const kept = /[\p{L}\p{Nd}\p{M}./\\_#+~\-@]/u.test(char) ||
      (char === "%" && /^[0-9A-Fa-f]{2}$/.test((chars[i + 1] ?? "") + (chars[i + 2] ?? "")));
    if (kept) {
      wasHyphen = char === "-";
      if (hyphenNext && !wasHyphen) out += "-";
      hyphenNext = false;
      out += char;
    } else if (out !== "" && !wasHyphen && /\s/u.test(char)) hyphenNext = true;
  }
  return out;
}

/**
 * Hugo's `MakePathSanitized` with the site's settings: sanitized, accents
 * removed with `removePathAccents`, lower-cased unless `disablePathToLower`.
 *
 * @example
 * ```ts
 * import { hugoPath } from "./hugo_permalinks.ts";
 * hugoPath("/Posts/My Post/", undefined); // "/posts/my-post/"
 * ```
 */
export function hugoPath(text: string, hugo: HugoData | undefined): string {
  let path = hugoSanitize(text);
  if (hugo?.removePathAccents) path = path.normalize("NFD").replace(/\p{M}/gu, "");
  return hugo?.disablePathToLower ? path : path.toLowerCase();
}

/** What a pattern's tokens read of a page. */
export interface HugoTokenPage {
  /** `page`, `section` or `home`. */
  readonly kind: "page" | "section" | "home";
  /** The folders of its current section (a page's container; a section's own path). */
  readonly sections: readonly string[];
  /** Its translation base name (`index` for a bundle, `_index` for a section). */
  readonly fileName: string;
  /** Its content base name (a bundle's or section's folder name). */
  readonly baseName: string;
  /** Its folder, for a bundle's `:filename`. */
  readonly folderName: string;
  readonly slug: string | undefined;
  readonly title: string;
  readonly date: DateParts;
}

const TOKEN = /:(\w+)(\[.+?\])?/g;
const ESCAPED_COLON = "\u0000";

/** Go's reference-time layout elements, longest first. */
const LAYOUT = /January|Monday|2006|Jan|Mon|002|__2|_2|01|02|03|04|05|06|15|PM|pm|1|2|3|4|5/g;

function goLayout(layout: string, d: DateParts): string {
  const hour12 = d.hour % 12 === 0 ? 12 : d.hour % 12;
  const elements: Record<string, string> = {
    January: MONTHS[d.month - 1],
    Jan: MONTHS[d.month - 1].slice(0, 3),
    Monday: WEEKDAYS[weekday(d)],
    Mon: WEEKDAYS[weekday(d)].slice(0, 3),
    "2006": String(d.year),
    "06": pad(d.year % 100, 2),
    "01": pad(d.month, 2),
    "1": String(d.month),
    "02": pad(d.day, 2),
    "2": String(d.day),
    "_2": String(d.day).padStart(2, " "),
    "002": pad(yearDay(d), 3),
    "__2": String(yearDay(d)).padStart(3, " "),
    "15": pad(d.hour, 2),
    "03": pad(hour12, 2),
    "3": String(hour12),
    "04": pad(d.minute, 2),
    "4": String(d.minute),
    "05": pad(d.second, 2),
    "5": String(d.second),
    PM: d.hour < 12 ? "AM" : "PM",
    pm: d.hour < 12 ? "am" : "pm",
  };
  return layout.replace(LAYOUT, (element) => elements[element]);
}

const NAMED = new Set([
  "year",
  "month",
  "monthname",
  "day",
  "weekday",
  "weekdayname",
  "yearday",
  "section",
  "sectionslug",
  "sections",
  "sectionslugs",
  "title",
  "slug",
  "slugorfilename",
  "filename",
  "contentbasename",
  "slugorcontentbasename",
]);

/**
 * The first token of a pattern Hugo does not know (Hugo refuses the
 * config), or `undefined`.
 *
 * @example
 * ```ts
 * import { hugoPatternProblem } from "./hugo_permalinks.ts";
 * hugoPatternProblem("/:year/:slug/"); // undefined
 * hugoPatternProblem("/:nope/"); // ":nope"
 * ```
 */
export function hugoPatternProblem(pattern: string): string | undefined {
  for (const [token, name] of pattern.replaceAll("\\:", ESCAPED_COLON).matchAll(TOKEN)) {
    const sliced = /^sections?(slugs)?$/.test(name) && token.includes("[");
    if (!NAMED.has(name) && !sliced && goLayout(name, ZERO) === name) return token;
  }
  return undefined;
}

const ZERO: DateParts = { year: 2019, month: 11, day: 9, hour: 23, minute: 1, second: 42 };

/** `:sections[1:]`, `[:last]`, `[last]`, `[1:2]`: Hugo's lenient slice (`toSliceFunc`). */
function slice(items: readonly string[], cut: string | undefined): readonly string[] {
  if (!cut) return items;
  const spec = cut.slice(1, -1).trim().toLowerCase();
  const index = (text: string, low: boolean): number => {
    if (text === "") return low ? 0 : items.length;
    if (text === "last") return items.length - 1;
    const n = Math.max(0, Number.parseInt(text, 10) || 0);
    return n >= items.length ? (low ? -1 : items.length) : n;
  };
  if (!spec.includes(":")) {
    const at = index(spec, true);
    return items.length === 0 || at < 0 ? [] : [items[at]];
  }
  const [low, high] = spec.split(":");
  const from = index(low, true), to = index(high, false);
  return from < 0 || to < 0 ? [] : items.slice(from, to);
}

/**
 * A pattern with a page's values in place of its tokens (each value urlized
 * as Hugo does), `\:` a literal colon.
 *
 * @example
 * ```ts
 * import { expandHugoPattern } from "./hugo_permalinks.ts";
 * const date = { year: 2023, month: 4, day: 1, hour: 0, minute: 0, second: 0 };
 * const page = { kind: "page", sections: ["posts"], fileName: "bash", baseName: "bash", folderName: "posts", slug: undefined, title: "Bash in Slow Motion", date } as const;
 * expandHugoPattern("/articles/:year/:month/:slug/", page, undefined); // "/articles/2023/04/bash-in-slow-motion/"
 * ```
 */
export function expandHugoPattern(
  pattern: string,
  page: HugoTokenPage,
  hugo: HugoData | undefined,
): string {
  const urlize = (text: string) => hugoPath(text, hugo);
  const d = page.date;
  const fileName = page.fileName === "index"
    ? page.folderName
    : page.fileName === "_index"
    ? ""
    : page.fileName;
  const values: Record<string, () => string> = {
    year: () => String(d.year),
    month: () => pad(d.month, 2),
    monthname: () => MONTHS[d.month - 1],
    day: () => pad(d.day, 2),
    weekday: () => String(weekday(d)),
    weekdayname: () => WEEKDAYS[weekday(d)],
    yearday: () => String(yearDay(d)),
    section: () => page.sections[0] ?? "",
    sectionslug: () => urlize(page.sections[0] ?? ""),
    title: () => urlize(page.title),
    slug: () => urlize(page.slug ?? page.title),
    filename: () => urlize(fileName),
    slugorfilename: () => urlize(page.slug ?? fileName),
    contentbasename: () => urlize(page.baseName),
    slugorcontentbasename: () => urlize(page.slug ?? page.baseName),
  };
  return pattern.replaceAll("\\:", ESCAPED_COLON).replace(
    TOKEN,
    (_token, name: string, cut: string | undefined) => {
      if (name === "sections" || name === "sectionslugs") {
        const parts = slice(page.sections, cut);
        return (name === "sections" ? parts : parts.map(urlize)).join("/");
      }
      return Object.hasOwn(values, name) ? values[name]() : goLayout(name, d) + (cut ?? "");
    },
  ).replaceAll(ESCAPED_COLON, ":");
}
