/**
 * Compiles glob patterns (`*`, `**`, `?`, `{a,b}`) into one predicate over
 * slash-separated relative paths. A pattern without a slash such as `.md` or
 * `*.md` matches at any depth, so `include: [".md"]` and `["**\/*.md"]` agree.
 *
 * @example
 * ```ts
 * import { globMatcher } from "./glob.ts";
 * const isDraft = globMatcher(["drafts/**"]);
 * isDraft("drafts/wip.md"); // true
 * isDraft("guide/intro.md"); // false
 * ```
 */
export function globMatcher(patterns: readonly string[]): (path: string) => boolean {
  for (const pattern of patterns) {
    const problem = globProblem(pattern);
    if (problem) throw new SyntaxError(`glob ${JSON.stringify(pattern)}: ${problem}`);
  }
  if (patterns.length === 0) return () => false;
  const source = patterns.map(globSource).join("|");
  const regex = new RegExp(`^(?:${source})$`, "u");
  return (path) => regex.test(path);
}

/**
 * What is wrong with a glob pattern, or `undefined` when it compiles: the
 * config names the pattern and this reason in its one start-up line.
 *
 * @example
 * ```ts
 * import { globProblem } from "./glob.ts";
 * globProblem("{a,b"); // "a '{' is not closed"
 * globProblem("drafts/**"); // undefined
 * ```
 */
export function globProblem(pattern: string): string | undefined {
  let depth = 0;
  for (const c of pattern) {
    if (c === "{") depth++;
    else if (c === "}") {
      if (depth === 0) return "a '}' closes no '{'";
      depth--;
    }
  }
  if (depth > 0) return "a '{' is not closed";
  try {
    new RegExp(`^(?:${globSource(pattern)})$`, "u");
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

function globSource(pattern: string): string {
  let glob = pattern.replace(/^\.\//, "");
  // ".md" is the extension shorthand of SPEC 3's pages row.
  if (/^\.[^/*?{]+$/.test(glob)) glob = `*${glob}`;
  if (!glob.includes("/")) glob = `**/${glob}`;
  let out = "";
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      out += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "{") {
      braces++;
      out += "(?:";
    } else if (c === "}" && braces > 0) {
      braces--;
      out += ")";
    } else if (c === "," && braces > 0) out += "|";
    else out += c.replace(/[.+^$()|[\]\\]/g, "\\$&");
  }
  return out;
}
