/**
 * One content file after reading and front-matter parsing (SPEC 4): where
 * it is, what its bytes were, its front matter and its body.
 */
export interface ParsedFile {
  /** Name of the content plugin that owns the file. */
  readonly plugin: string;
  /** Path relative to the plugin's folder, `/`-separated. */
  readonly path: string;
  /** SHA-256 of the raw bytes, lowercase hex. */
  readonly checksum: string;
  /** Modification time, epoch milliseconds. */
  readonly mtime: number;
  /** Front matter (an empty map when the file has none). */
  readonly attrs: Readonly<Record<string, unknown>>;
  /** The body after the front matter, trimmed. */
  readonly body: string;
}

/** A problem with one file or folder; logged once per load, never served. */
export interface Warning {
  /** The file or folder, relative to the content root. */
  readonly file: string;
  /** The 1-based line of the file the problem is on, where one is known (`check --format github`). */
  readonly line?: number;
  /** What is wrong and what was done about it. */
  readonly message: string;
  /**
   * Set when the file (or the folder's files) is left out: why (the
   * `content-feed check` table counts them, SPEC 15).
   */
  readonly reason?:
    | "invalid front matter"
    | "not text"
    | "too large"
    | "not a regular file"
    | "unreadable"
    | "duplicate uri"
    | "orphan folder"
    | "too deep";
  /**
   * Set when the warning changes nothing that is served (a shallow clone:
   * dates fall back as they would without git): `check` fails on it only
   * with `--strict` (SPEC 16.5).
   */
  readonly informational?: boolean;
}

/** Why a file is left out, on the warnings that leave one out. */
export type LeftOutReason = NonNullable<Warning["reason"]>;

/** A warning that leaves a file out: what a read or a parse gives instead of a file. */
export type LeftOutWarning = Warning & { readonly reason: LeftOutReason };
