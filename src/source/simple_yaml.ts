// The YAML that nearly all front matter is written in, read without a full
// YAML parser, which was a noticeable share of a cold start (figures in
// docs/performance.md). Anything outside this small subset returns
// `undefined`, and the caller hands the block to js-yaml, so a result from
// here must always equal js-yaml's (CORE_SCHEMA) for the same text; the
// differential test in tests/simple_yaml_test.ts holds it to that.

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?$/;
const ITEM_LINE = /^( *)- +(.+)$/;
// Tabs, carriage returns, controls, BOMs, lone surrogates, non-characters, line separators.
// deno-lint-ignore no-control-regex -- control characters are exactly what it looks for
const AWKWARD = /[\x00-\x09\x0b-\x1f\x7f-\x9f\ufeff\ufffe\uffff\ud800-\udfff\u2028\u2029]/;
// A plain scalar may not start with an indicator (YAML 1.2, 7.3.3); js-yaml decides those.
const INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`]/;
// Keys that core-schema YAML reads as something other than their text.
const SPECIAL_KEY = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|__proto__)$/;
const INTEGER = /^(?:0|[1-9][0-9]{0,14})$/;
// Text that starts like a number and is one of the date forms front matter uses.
const DATE = /^\d{4}-\d\d-\d\d(?:[Tt]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)?)?$/;

/**
 * Reads a front-matter block written as top-level `key: value` lines, where a
 * value is a plain, single- or double-quoted scalar without escapes, a flow
 * list `[a, "b"]` of such scalars, or a block list of `- item` lines; returns
 * `undefined` for anything else (nested maps, multi-line scalars, comments,
 * anchors, tags, escapes, duplicate keys), which the caller gives to js-yaml.
 * Values resolve as in YAML's core schema: `null`/`~`/empty, `true`/`false`,
 * decimal integers; any other number-like text is left to js-yaml.
 *
 * @example
 * ```ts
 * import { parseSimpleYaml } from "./simple_yaml.ts";
 * parseSimpleYaml("title: Hi\ntags: [a, b]\norder: 2"); // { title: "Hi", tags: ["a", "b"], order: 2 }
 * parseSimpleYaml("a:\n  b: 1"); // undefined: a nested map is js-yaml's job
 * ```
 */
export function parseSimpleYaml(text: string): Record<string, unknown> | undefined {
  if (AWKWARD.test(text)) return undefined;
  const out: Record<string, unknown> = {};
  let listKey: string | undefined; // a key with an empty value, which `- item` lines may follow
  let list: unknown[] | undefined;
  let indent = -1;
  const close = () => {
    if (listKey !== undefined) out[listKey] = list ?? null;
    listKey = undefined;
    list = undefined;
    indent = -1;
  };
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const key = KEY_LINE.exec(line);
    if (key) {
      close();
      const name = key[1];
      if (SPECIAL_KEY.test(name) || Object.hasOwn(out, name)) return undefined;
      const raw = (key[2] ?? "").replace(/ +$/, "");
      if (raw === "") {
        listKey = name;
        continue;
      }
      const value = raw[0] === "[" ? flowList(raw) : scalar(raw, false);
      if (value === undefined) return undefined;
      out[name] = value;
      continue;
    }
    const item = ITEM_LINE.exec(line);
    if (!item || listKey === undefined) return undefined;
    if (indent === -1) indent = item[1].length;
    else if (item[1].length !== indent) return undefined;
    const value = scalar(item[2].replace(/ +$/, ""), false);
    if (value === undefined) return undefined;
    (list ??= []).push(value);
  }
  close();
  return Object.keys(out).length > 0 ? out : undefined; // an empty document is not a map
}

/** `[a, "b", 'c']` with scalars only (no nested lists or maps, no empty entries). */
function flowList(raw: string): unknown[] | undefined {
  if (raw[raw.length - 1] !== "]") return undefined;
  const inner = raw.slice(1, -1);
  if (inner.trim() === "") return [];
  const out: unknown[] = [];
  for (const part of inner.split(",")) {
    const value = scalar(part.trim(), true);
    if (value === undefined) return undefined;
    out.push(value);
  }
  return out;
}

/** One scalar, or `undefined` when js-yaml should decide. */
function scalar(raw: string, inFlow: boolean): unknown {
  if (raw === "") return undefined;
  const first = raw[0];
  if (first === '"' || first === "'") {
    const inner = raw.slice(1, -1);
    if (raw.length < 2 || raw[raw.length - 1] !== first) return undefined;
    if (inner.includes(first) || (first === '"' && inner.includes("\\"))) return undefined;
    return inner;
  }
  if (INDICATOR.test(raw) || raw.includes(": ") || raw.includes(" #") || raw.endsWith(":")) {
    return undefined;
  }
  if (inFlow && /[[\]{}]/.test(raw)) return undefined;
  switch (raw) {
    case "~":
    case "null":
    case "Null":
    case "NULL":
      return null;
    case "true":
    case "True":
    case "TRUE":
      return true;
    case "false":
    case "False":
    case "FALSE":
      return false;
  }
  if (INTEGER.test(raw)) return Number(raw);
  const code = raw.charCodeAt(0);
  // Digits, signs and dots may be numbers (1e3, .5, 0x1F, +1): only plain dates stay here.
  if ((code >= 48 && code <= 57) || code === 43 || code === 46) {
    return DATE.test(raw) ? raw : undefined;
  }
  return raw;
}
