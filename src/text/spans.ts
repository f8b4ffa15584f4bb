// Spans from an opener to the nearest closer after it (comments, tags,
// template tags), found in time linear in the text. A pattern such as
// /<!--[\s\S]*?-->/g scans to the end of the text from every opener that has
// no closer after it: quadratic in a run of openers (40,000 `<!--` took 4 s,
// `bench/text_shapes.ts`). Here a closer is looked for once: when an opener
// has none after it, no later opener has one either.

/** What opens or closes a span: a string, or a pattern with the `g` flag. */
export type Marker = string | RegExp;

/** Where `marker` next occurs at or after `from`: its start and end, or `undefined`. */
function find(text: string, marker: Marker, from: number): [number, number] | undefined {
  if (typeof marker === "string") {
    const at = text.indexOf(marker, from);
    return at === -1 ? undefined : [at, at + marker.length];
  }
  marker.lastIndex = from;
  const match = marker.exec(text);
  return match ? [match.index, match.index + match[0].length] : undefined;
}

/**
 * The first span of `text` from `open` to the nearest `close` after it, as
 * `/open([\s\S]*?)close/.exec(text)` finds it: the span's start, where its
 * content starts and ends, and its end; `undefined` when there is none.
 *
 * @example
 * ```ts
 * import { firstSpan } from "./spans.ts";
 * firstSpan("a <b>bold</b> c", /<b>/g, /<\/b>/g); // [2, 5, 9, 13]
 * ```
 */
export function firstSpan(
  text: string,
  open: Marker,
  close: Marker,
): [number, number, number, number] | undefined {
  const opener = find(text, open, 0);
  const closer = opener && find(text, close, opener[1]);
  return opener && closer ? [opener[0], opener[1], closer[0], closer[1]] : undefined;
}

/**
 * `text` with each span from `open` to the nearest `close` after it replaced
 * by `by`, left to right: what `text.replace(/open[\s\S]*?close/g, by)` gives.
 *
 * @example
 * ```ts
 * import { replaceSpans } from "./spans.ts";
 * replaceSpans("a <!-- x --> b <!-- open", "<!--", "-->"); // "a  b <!-- open"
 * replaceSpans("<p>Hi</p>", "<", ">", " "); // " Hi "
 * ```
 */
export function replaceSpans(text: string, open: Marker, close: Marker, by = ""): string {
  let out = "";
  let at = 0;
  for (;;) {
    const opener = find(text, open, at);
    const closer = opener && find(text, close, opener[1]);
    if (!opener || !closer) break;
    out += text.slice(at, opener[0]) + by;
    at = closer[1];
  }
  return at === 0 ? text : out + text.slice(at);
}

/**
 * `text` without Liquid tags (`{% … %}`, `{{ … }}`) and Hugo shortcodes
 * (`{{< … >}}`, `{{% … %}}`): what
 * `text.replace(/\{\{[<%][\s\S]*?[>%]\}\}|\{%[\s\S]*?%\}|\{\{[\s\S]*?\}\}/g, "")`
 * gives, each closer looked for from where the last search for it ended.
 *
 * @example
 * ```ts
 * import { withoutTemplateTags } from "./spans.ts";
 * withoutTemplateTags("a {{< note >}}b{{< /note >}} {% if x %}c{% endif %} {{ d }}"); // "a b c "
 * ```
 */
export function withoutTemplateTags(text: string): string {
  let brace = text.indexOf("{");
  if (brace === -1) return text;
  // The next occurrence of each closer, kept while the search moves right: -1 is "none left".
  const next = new Map<string, number>();
  const nextOf = (closer: string, from: number) => {
    const known = next.get(closer);
    if (known === -1 || (known !== undefined && known >= from)) return known;
    const found = text.indexOf(closer, from);
    next.set(closer, found);
    return found;
  };
  let out = "";
  let at = 0;
  for (; brace !== -1 && brace < text.length - 1; brace = text.indexOf("{", brace + 1)) {
    const second = text[brace + 1];
    let end = -1;
    if (second === "{" && (text[brace + 2] === "<" || text[brace + 2] === "%")) {
      // `{{<` … `>}}` or `%}}`: the nearer of the two.
      const angle = nextOf(">}}", brace + 3);
      const percent = nextOf("%}}", brace + 3);
      const close = angle === -1 ? percent : percent === -1 ? angle : Math.min(angle, percent);
      if (close !== -1) end = close + 3;
    }
    if (end === -1 && second === "%") {
      const close = nextOf("%}", brace + 2);
      if (close !== -1) end = close + 2;
    }
    if (end === -1 && second === "{") {
      const close = nextOf("}}", brace + 2);
      if (close !== -1) end = close + 2;
    }
    if (end === -1) continue;
    out += text.slice(at, brace);
    at = end;
    brace = end - 1;
  }
  return at === 0 ? text : out + text.slice(at);
}
