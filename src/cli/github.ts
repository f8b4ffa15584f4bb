// `check --format github` (SPEC 15): the report as GitHub Actions workflow
// commands, so a content repository's CI shows each finding and warning on
// its file and line.
import process from "node:process";
import { runGit } from "../source/git.ts";
import { type CheckReport, warningFails } from "./check.ts";

/** A workflow command's message: `%`, CR and LF escaped, as the Actions runner reads them. */
function escapeData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** A workflow command's property value: its message's escapes, and `:` and `,`. */
function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/**
 * Where the content root is as a path from the repository's root (`content/`,
 * or `""` at the root): annotations name files from there. Outside a git
 * work tree, from the working directory when the content is under it, else
 * the absolute path.
 */
async function rootPrefix(root: string): Promise<string> {
  try {
    return (await runGit(root, ["rev-parse", "--show-prefix"])).trim();
  } catch {
    const cwd = process.cwd().replace(/\/+$/, "");
    if (root === cwd) return "";
    return root.startsWith(`${cwd}/`) ? `${root.slice(cwd.length + 1)}/` : `${root}/`;
  }
}

/** One workflow command: `::error file=…,line=…,title=…::message`. */
function annotation(
  level: "error" | "warning",
  file: string,
  line: number | undefined,
  title: string,
  message: string,
): string {
  const properties = [`file=${escapeProperty(file)}`];
  if (line !== undefined) properties.push(`line=${line}`);
  properties.push(`title=${escapeProperty(title)}`);
  return `::${level} ${properties.join(",")}::${escapeData(message)}`;
}

/**
 * The report as GitHub Actions annotations, one a line: each finding an
 * `::error` with its file and, where known, its line (a file left out is
 * told once, by its warning); each warning an
 * `::error` when it fails the check and a `::warning` when it does not (a
 * shallow clone's, without `--strict`); files named from the repository's
 * root. A last plain line counts them.
 *
 * @example
 * ```ts
 * import { checkContent } from "./check.ts";
 * import { githubAnnotations } from "./github.ts";
 * console.log(await githubAnnotations(await checkContent("content/services.yaml"), false));
 * // ::error file=content/docs/a.md,line=7,title=broken link::/docs/gone reaches no item
 * ```
 */
export async function githubAnnotations(report: CheckReport, strict: boolean): Promise<string> {
  const prefix = await rootPrefix(report.root);
  const lines: string[] = [];
  let errors = 0;
  // A file left out is both a finding and a warning: its warning says more (the line, the cause).
  const warned = new Set(report.warnings.map((w) => `${w.file}\n${w.reason}`));
  for (const finding of report.findings) {
    if (finding.kind === "left out" && warned.has(`${finding.file}\n${finding.detail}`)) continue;
    errors++;
    const message = finding.kind === "broken link"
      ? `${finding.detail} reaches no item`
      : finding.detail;
    lines.push(annotation("error", prefix + finding.file, finding.line, finding.kind, message));
  }
  for (const warning of report.warnings) {
    const fails = warningFails(warning, strict);
    if (fails) errors++;
    lines.push(annotation(
      fails ? "error" : "warning",
      prefix + warning.file,
      warning.line,
      warning.reason ?? "content-feed check",
      warning.message,
    ));
  }
  const warnings = lines.length - errors;
  lines.push(
    `content-feed check: ${report.config}: ${errors} error${
      errors === 1 ? "" : "s"
    }, ${warnings} warning${warnings === 1 ? "" : "s"}`,
  );
  return lines.join("\n");
}
