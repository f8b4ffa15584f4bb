// Gitignore-style patterns (git-scm.com/docs/gitignore, as pathspec's
// GitIgnoreSpec reads them), which MkDocs' `exclude_docs` and `draft_docs`
// are written in: one pattern a line, `#` comments, `!` re-includes, a
// leading or inner `/` anchors a pattern at the root, a trailing `/` names
// folders only, `*` and `?` stay inside a segment, `**` spans segments; a
// pattern that matches a folder matches everything in it; the last pattern
// that matches decides.

/** One compiled pattern: what it matches, whether it re-includes, whether it names folders only. */
interface Rule {
  readonly regex: RegExp;
  readonly negated: boolean;
  readonly folderOnly: boolean;
}

/** A pattern's regular expression source (without the anchors), for a path with no leading `/`. */
function sourceOf(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*" && pattern[i + 1] === "*") {
      const before = i === 0 || pattern[i - 1] === "/";
      const after = pattern[i + 2] === "/" || i + 2 === pattern.length;
      if (before && after) {
        // `**/` any leading folders; `/**` everything inside.
        out += pattern[i + 2] === "/" ? "(?:.*/)?" : ".*";
        i += pattern[i + 2] === "/" ? 2 : 1;
        continue;
      }
      out += "[^/]*";
      i++;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end === -1) out += "\\[";
      else {
        out += `[${pattern.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else if (c === "\\" && i + 1 < pattern.length) {
      out += pattern[++i].replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    } else out += c.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  return out;
}

/** One line as a rule, or `undefined` for a blank line or a comment. */
function ruleOf(line: string): Rule | undefined {
  let pattern = line.replace(/(?<!\\)\s+$/, "");
  if (pattern === "" || pattern.startsWith("#")) return undefined;
  const negated = pattern.startsWith("!");
  if (negated) pattern = pattern.slice(1);
  else if (pattern.startsWith("\\!") || pattern.startsWith("\\#")) pattern = pattern.slice(1);
  const folderOnly = pattern.endsWith("/");
  pattern = pattern.replace(/\/+$/, "");
  if (pattern === "") return undefined;
  const anchored = pattern.includes("/");
  pattern = pattern.replace(/^\/+/, "");
  const source = sourceOf(pattern);
  try {
    return {
      regex: new RegExp(`^${anchored ? "" : "(?:.*/)?"}${source}$`, "u"),
      negated,
      folderOnly,
    };
  } catch {
    return undefined;
  }
}

/**
 * A predicate over `/`-separated paths (relative to the folder the patterns
 * are for) that says whether gitignore-style `lines` leave a file out: the
 * file or one of its folders is matched, and the last pattern to match does
 * not re-include it. Lines that do not compile are left out.
 *
 * @example
 * ```ts
 * import { gitignoreMatcher } from "./gitignore.ts";
 * const excluded = gitignoreMatcher(["includes/", "*.draft.md", "!keep.draft.md"]);
 * excluded("includes/abbr.md"); // true
 * excluded("notes/todo.draft.md"); // true
 * excluded("keep.draft.md"); // false
 * excluded("guide/intro.md"); // false
 * ```
 */
export function gitignoreMatcher(lines: readonly string[]): (path: string) => boolean {
  const rules = lines.flatMap((line) => ruleOf(line) ?? []);
  if (rules.length === 0) return () => false;
  return (path) => {
    const segments = path.split("/").filter(Boolean);
    let excluded = false;
    for (const rule of rules) {
      // The file itself (not for a folder-only pattern), or any folder above it.
      let matched = !rule.folderOnly && rule.regex.test(segments.join("/"));
      for (let depth = 1; !matched && depth < segments.length; depth++) {
        matched = rule.regex.test(segments.slice(0, depth).join("/"));
      }
      if (matched) excluded = !rule.negated;
    }
    return excluded;
  };
}
