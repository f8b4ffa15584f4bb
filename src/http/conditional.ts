/** What a conditional request is compared with: the validators of a representation. */
export interface Validators {
  /** The ETags of every encoding of the representation: any of them matches. */
  readonly etags: ReadonlySet<string>;
  /** Epoch ms, second precision: `Last-Modified`. */
  readonly lastModified: number;
}

/**
 * Whether a request's validators match, so the answer is a `304` (SPEC 9,
 * RFC 9110 13.1): `If-None-Match` compared weakly (any encoding's ETag, with
 * or without `W/`, or `*`), else `If-Modified-Since`.
 *
 * @example
 * ```ts
 * import { isNotModified } from "./conditional.ts";
 * const request = new Request("http://x/", { headers: { "If-None-Match": 'W/"abc"' } });
 * isNotModified(request, { etags: new Set(['"abc"']), lastModified: 0 }); // true
 * ```
 */
export function isNotModified(request: Request, validators: Validators): boolean {
  const match = request.headers.get("If-None-Match");
  if (match !== null) {
    if (validators.etags.has(match)) return true; // the usual case: the ETag sent back as it came
    return match.split(",").some((tag) => {
      const t = tag.trim().replace(/^W\//, "");
      return t === "*" || validators.etags.has(t);
    });
  }
  const since = request.headers.get("If-Modified-Since");
  if (since === null) return false;
  const time = Date.parse(since);
  return !Number.isNaN(time) && validators.lastModified <= time;
}
