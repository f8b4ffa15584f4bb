/**
 * What the index needs of a content file once the file's own fields are
 * derived: where it is and what its bytes were. A server's loader keeps only
 * this (its front matter and body are let go after deriving, and a body is
 * read again when a request needs it), so the index does not hold the text
 * of every file.
 */
export interface IndexedFile {
  /** Name of the content plugin that owns the file. */
  readonly plugin: string;
  /** Path relative to the plugin's folder, `/`-separated. */
  readonly path: string;
  /** SHA-256 of the raw bytes, lowercase hex. */
  readonly checksum: string;
  /** Modification time, epoch milliseconds. */
  readonly mtime: number;
}

/**
 * One content file after reading and front-matter parsing: everything the
 * index needs, and exactly what an edge snapshot stores per file (plain JSON).
 */
export interface ParsedFile extends IndexedFile {
  /** Front matter (an empty map when the file has none). */
  readonly attrs: Readonly<Record<string, unknown>>;
  /** The body after the front matter, trimmed. */
  readonly body: string;
  /** Word runs of the body (SPEC 4 `time`), when the loader counted them on the bytes. */
  readonly words?: number;
}

/** A problem with one file or folder; logged once per load, never served. */
export interface Warning {
  /** The file or folder, relative to the content root. */
  readonly file: string;
  /** What is wrong and what was done about it. */
  readonly message: string;
}
