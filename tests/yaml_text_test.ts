import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { readYamlFast } from "../src/config/yaml_text.ts";
import { CONFIG } from "../bench/site.ts";

const root = new URL("..", import.meta.url).pathname;

/** What `yaml` reads a text as (the reading parseConfig falls back to), or "rejected". */
function yamlReading(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) return "rejected";
  try {
    return doc.toJS({ maxAliasCount: 10_000 });
  } catch {
    return "rejected";
  }
}

/** Every services.yaml and authors file the repository holds. */
function repositoryConfigs(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/^(services|authors)\.ya?ml$/.test(entry.name)) found.push(path);
    }
  };
  walk(root);
  return found;
}

const SCALARS = [
  "0x1F",
  "0o17",
  "0b11",
  "1_000",
  "+1",
  "-1",
  ".5",
  "1.",
  "1e3",
  "1E3",
  ".inf",
  "-.Inf",
  ".NaN",
  "0017",
  "~",
  "null",
  "Null",
  "NULL",
  "",
  "true",
  "True",
  "TRUE",
  "tRUE",
  "yes",
  "on",
  "y",
  "2024-01-01",
  "'q'",
  '"q\\u00e9"',
  "12:30",
  "[a, b]",
  "{a: 1}",
  "!!str 1",
  "!!float 1",
  "!!bool yes",
  "!foo x",
  "9007199254740993",
  "1e400",
  "-0",
  ">-\n  folded\n  text",
  "|\n  literal\n  text",
  "https://example.com/docs/",
  "'1e400'",
  "*x",
  `1${"0".repeat(400)}`,
  `0x${"f".repeat(300)}`,
  `-${"9".repeat(330)}.5`,
];
const TEXTS = [
  "a: b: c",
  "a: [x,\ny]",
  "a: 'x",
  "a: x\n b: y",
  "a:\n\tb: 1",
  "a: 1\na: 2",
  "a: {x: 1",
  "a: [1,,2]",
  "a: @x",
  "? a\n: b",
  "a: &x [1]\nb: *x",
  "a: &x 1\nb: *x",
  "a: *y",
  "---\na: 1\n---\nb: 2",
  "",
  "# only",
  "%YAML 1.1\n---\na: yes",
  "\ufeffa: 1",
  "a: 1\r\nb: 2\r\n",
  "~: v",
  "null: v",
  "1: v",
  "1.0: a\n1: b",
  "__proto__: {a: 1}",
  "[a]: v",
  "true: a\nTrue: b",
  `a: ${"*x ".repeat(101)}`,
  "x: &x {a: 1}\ny: [*x, *x]",
  "a: [b, {c: d}]",
  "a: !!map {b: 1}",
  "<<: {a: 1}\nb: 2", // a merge key is a plain key in YAML 1.2, to both
  "x: &x {a: 1}\ny:\n  <<: *x\n  b: 2",
];

describe("the configuration's YAML read by js-yaml (src/config/yaml_text.ts)", () => {
  it("reads every text as `yaml` does, or leaves it to `yaml`", () => {
    const texts = [
      ...SCALARS.map((scalar) => `k: ${scalar}\n`),
      ...SCALARS.map((scalar) => `list:\n  - ${scalar.replace(/\n/g, "\n    ")}\n`),
      ...TEXTS,
      ...repositoryConfigs().map((file) => readFileSync(file, "utf8")),
      CONFIG,
    ];
    let fast = 0;
    for (const text of texts) {
      const read = readYamlFast(text);
      if (!read) continue;
      fast++;
      assert.deepEqual(
        read.value,
        yamlReading(text),
        `js-yaml read ${JSON.stringify(text)} otherwise`,
      );
    }
    // Most texts take the fast path: a reader that always gave up would pass the loop.
    assert.ok(fast > texts.length / 2, `${fast} of ${texts.length} read by js-yaml`);
  });

  it("reads the repository's configs and the benchmark's, without `yaml`", () => {
    const configs = repositoryConfigs().filter((file) => file.endsWith("services.yaml"));
    assert.ok(configs.length >= 5, `${configs.length} services.yaml files`);
    for (const file of [...configs.map((path) => readFileSync(path, "utf8")), CONFIG]) {
      assert.notEqual(readYamlFast(file), undefined, file.slice(0, 80));
    }
  });

  it("leaves to `yaml` what js-yaml reads otherwise or rejects", () => {
    for (
      const text of [
        "k: !!float 1", // a number to js-yaml, the text "1" to `yaml`
        "k: 1e400", // a string to js-yaml, Infinity to `yaml`
        "~: v", // the key "null" to js-yaml, "" to `yaml`
        "%YAML 1.1\n---\nk: yes", // YAML 1.1 to `yaml`
        "x: &x {a: 1}\ny: [*x, *x]", // an alias of a collection: `yaml` bounds what it expands to
        `k: [${"*x, ".repeat(101)}]`, // more aliases than a config needs
        "", // js-yaml rejects an empty text, `yaml` reads null
        "a: 1\na: 2", // rejected: `yaml` says why, with the line
      ]
    ) {
      assert.equal(readYamlFast(text), undefined, JSON.stringify(text));
    }
  });
});
