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
  if (patterns.length === 0) return () => false;
  const source = patterns.map(globSource).join("|");
  const regex = new RegExp(`^(?:${source})$`, "u");
  return (path) => regex.test(path);
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
