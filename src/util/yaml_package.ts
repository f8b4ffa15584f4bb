// The `yaml` package, loaded when it is first needed. It reads YAML exactly
// (YAML 1.2, positions in its errors, a bound on aliases) but costs a start
// 25–30 ms and 4 MB to load under Deno, which loads its CommonJS build: the
// configuration and front matter are read with js-yaml first, and `yaml`
// only where js-yaml's reading could differ from it or fails.
import process from "node:process";

/** The `yaml` package's exports. */
export type YamlPackage = typeof import("yaml");

let loaded: YamlPackage | undefined;

/**
 * The `yaml` package, loaded synchronously on the first call (a CommonJS
 * `require`, which Deno, Bun and Node all give an ES module through
 * `createRequire`) and kept.
 *
 * @example
 * ```ts
 * import { yamlPackage } from "./yaml_package.ts";
 * yamlPackage().parseDocument("a: 1").toJS(); // { a: 1 }
 * ```
 */
export function yamlPackage(): YamlPackage {
  // `node:module` asked for here, not imported: importing it cost every Deno start 12 ms.
  loaded ??= process.getBuiltinModule("node:module").createRequire(import.meta.url)(
    "yaml",
  ) as YamlPackage;
  return loaded;
}
