// The configuration's YAML texts (the service file, an authors file) read
// by js-yaml where its reading is the one `yaml` gives, so that a start
// need not load `yaml` (src/util/yaml_package.ts). Compared on the texts a
// configuration holds: what either rejects, a tag, a directive, an alias of
// a collection, a key `~` and a number past the doubles' range are where
// they part, and those texts go to `yaml`.
import { CORE_SCHEMA, load } from "js-yaml";

/** Alias uses (`*name`) js-yaml may resolve here: far below the bound `yaml` enforces. */
const MAX_ALIASES = 100;

/**
 * A tag (`!!float 1`, `!x`), which js-yaml resolves otherwise than `yaml`,
 * or a directive (`%YAML 1.1`, which switches `yaml` to YAML 1.1).
 */
const TAG_OR_DIRECTIVE = /(?:^|[\s,[{:?-])!|^%/m;

/** YAML 1.2 core schema's number forms: decimal, octal, hexadecimal, float, infinity, NaN. */
const NUMBER_FORM =
  /^(?:[-+]?\d+|0o[0-7]+|0x[\da-fA-F]+|[-+]?(?:\.\d+|\d+(?:\.\d*)?)(?:[eE][-+]?\d+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/**
 * Whether a string js-yaml gave may be a number `yaml` reads: js-yaml
 * leaves a plain number past the doubles' range (`1e400`) as its text,
 * `yaml` reads it as `Infinity`. (A quoted text is a string to both, and
 * any other number form a number to both.)
 */
function overflowingNumber(text: string): boolean {
  if (!NUMBER_FORM.test(text)) return false;
  const value = text.startsWith("0x")
    ? parseInt(text.slice(2), 16)
    : text.startsWith("0o")
    ? parseInt(text.slice(2), 8)
    : Number(text);
  return !Number.isFinite(value) && !/inf|nan/i.test(text);
}

/**
 * The value of a YAML text as js-yaml reads it with YAML 1.2's core schema,
 * when that is the value `yaml` gives (`parseDocument(text, { uniqueKeys:
 * true }).toJS()`): `undefined` when js-yaml rejects the text, or where its
 * reading could differ (a tag or directive, more than a few aliases, a
 * collection reached twice, a key that is `null` or `__proto__`, a number
 * past the doubles' range). The caller reads those with `yaml`.
 *
 * @example
 * ```ts
 * import { readYamlFast } from "./yaml_text.ts";
 * readYamlFast("plugins:\n  docs: ~\n"); // { value: { plugins: { docs: null } } }
 * readYamlFast("size: !!float 1\n"); // undefined: a tag
 * ```
 */
export function readYamlFast(text: string): { value: unknown } | undefined {
  if (TAG_OR_DIRECTIVE.test(text)) return undefined;
  let aliases = 0;
  for (let at = text.indexOf("*"); at !== -1; at = text.indexOf("*", at + 1)) {
    if (++aliases > MAX_ALIASES) return undefined;
  }
  let value: unknown;
  try {
    value = load(text, { schema: CORE_SCHEMA });
  } catch {
    return undefined;
  }
  return plain(value, new Set()) ? { value } : undefined;
}

/** Whether a value read by js-yaml holds nothing `yaml` reads otherwise (see {@link readYamlFast}). */
function plain(value: unknown, seen: Set<object>): boolean {
  if (typeof value === "string") return !overflowingNumber(value);
  if (typeof value !== "object" || value === null) return true;
  // A collection reached twice is an alias of it: `yaml` counts what it expands to.
  if (seen.has(value)) return false;
  seen.add(value);
  if (Array.isArray(value)) return value.every((entry) => plain(entry, seen));
  for (const [key, entry] of Object.entries(value)) {
    if (key === "null" || key === "__proto__" || overflowingNumber(key)) return false;
    if (!plain(entry, seen)) return false;
  }
  return true;
}
