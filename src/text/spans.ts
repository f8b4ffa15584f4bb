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
 * `text` without template tags: Liquid and Nunjucks tags (`{% … %}`),
 * output tags (`{{ … }}`), Nunjucks comments (`{# … #}`) and Hugo
 * shortcodes (`{{< … >}}`, `{{% … %}}`), whatever their arguments hold: a
 * quote inside a tag (`{% include "a.html" title="x %} y" %}`) runs to its
 * closing quote, and the tag to the first closer after it. Without quotes
 * it is what
 * `text.replace(/\{\{[<%][\s\S]*?[>%]\}\}|\{%[\s\S]*?%\}|\{\{[\s\S]*?\}\}/g, "")`
 * gives. Each closer and quote is looked for from where the last search for
 * it ended (linear in the text).
 *
 * @param only which tags to take out (all by default)
 *
 * @example
 * ```ts
 * import { withoutTemplateTags } from "./spans.ts";
 * withoutTemplateTags("a {{< note >}}b{{< /note >}} {% if x %}c{% endif %} {{ d }}"); // "a b c "
 * withoutTemplateTags('{% include "x.html" t="%}" %}Hi'); // "Hi"
 * ```
 */
export function withoutTemplateTags(text: string, only?: (tag: string) => boolean): string {
  let brace = text.indexOf("{");
  if (brace === -1) return text;
  const next = createFinder(text);
  let out = "";
  let at = 0;
  for (; brace !== -1 && brace < text.length - 1; brace = text.indexOf("{", brace + 1)) {
    const second = text[brace + 1];
    let end = -1;
    if (second === "{" && (text[brace + 2] === "<" || text[brace + 2] === "%")) {
      // `{{<` … `>}}` or `%}}`: the nearer of the two.
      const angle = next(">}}", brace + 3);
      const percent = next("%}}", brace + 3);
      const close = angle === -1 ? percent : percent === -1 ? angle : Math.min(angle, percent);
      if (close !== -1) end = close + 3;
    }
    if (end === -1 && second === "%") end = tagEnd(text, brace + 2, "%}", next);
    if (end === -1 && second === "{") end = tagEnd(text, brace + 2, "}}", next);
    if (end === -1 && second === "#") end = tagEnd(text, brace + 2, "#}", next);
    if (end === -1 || (only !== undefined && !only(text.slice(brace, end)))) continue;
    out += text.slice(at, brace);
    at = end;
    brace = end - 1;
  }
  return at === 0 ? text : out + text.slice(at);
}

/**
 * Where `marker` next occurs at or after `from` (-1: none), remembering each
 * marker's last answer: searches from increasing places cost one pass of
 * the text per marker.
 */
function createFinder(text: string): (marker: string, from: number) => number {
  const known = new Map<string, { from: number; found: number }>();
  return (marker, from) => {
    const last = known.get(marker);
    if (last !== undefined && from >= last.from && (last.found === -1 || last.found >= from)) {
      return last.found;
    }
    const found = text.indexOf(marker, from);
    known.set(marker, { from, found });
    return found;
  };
}

/**
 * The end of a tag whose arguments start at `from` and which `closer`
 * closes (just past it), or -1: a quote inside the tag runs to its closing
 * quote (a closer inside it is no closer); a quote that is not closed
 * before the end of the text is a character like any other.
 */
function tagEnd(
  text: string,
  from: number,
  closer: string,
  next: (marker: string, from: number) => number,
): number {
  let close = next(closer, from);
  if (close === -1) return -1;
  let at = from;
  for (;;) {
    const double = next('"', at);
    const single = next("'", at);
    const quoteAt = double === -1 ? single : single === -1 ? double : Math.min(double, single);
    if (quoteAt === -1 || quoteAt >= close) return close + closer.length;
    const quoteEnd = next(text[quoteAt], quoteAt + 1);
    if (quoteEnd === -1) return close + closer.length;
    at = quoteEnd + 1;
    if (quoteEnd >= close) {
      const after = next(closer, at);
      if (after === -1) return close + closer.length;
      close = after;
    }
  }
}

/**
 * The code spans of a line, as start and end pairs (a run of backticks to
 * the next run of the same length), so that what they hold stays as
 * written. Linear: each run's next run of its length is found in one pass
 * from the end.
 *
 * @example
 * ```ts
 * import { codeSpans } from "./spans.ts";
 * codeSpans("a `<b>` c"); // [2, 7]
 * ```
 */
export function codeSpans(line: string): number[] {
  const starts: number[] = [];
  const lengths: number[] = [];
  for (let at = line.indexOf("`"); at !== -1;) {
    let run = at;
    while (line.charCodeAt(run) === 96) run++;
    starts.push(at);
    lengths.push(run - at);
    at = line.indexOf("`", run);
  }
  const nextSame: number[] = new Array(starts.length);
  const last = new Map<number, number>();
  for (let k = starts.length - 1; k >= 0; k--) {
    nextSame[k] = last.get(lengths[k]) ?? -1;
    last.set(lengths[k], k);
  }
  const spans: number[] = [];
  for (let k = 0; k < starts.length;) {
    const close = nextSame[k];
    if (close === -1) k++;
    else {
      spans.push(starts[k], starts[close] + lengths[close]);
      k = close + 1;
    }
  }
  return spans;
}
