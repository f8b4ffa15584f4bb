// What a restart's content key is made of besides the files (SPEC 17): the
// site's configuration as resolved. Apart from `pipeline.ts` so a restart's
// early check can make it before the pipeline's modules are loaded: a restart
// that serves its kept feed loads them after its first answer.
import { stableJson } from "./derivation_cache.ts";
import type { ResolvedSite } from "./site.ts";
import { joinKeys } from "../source/stamps_key.ts";
import { sha256HexSync } from "../util/sha256.ts";

/**
 * The site's configuration as resolved (generator, variants, pages' rules,
 * warnings) and whether bodies are kept, hashed: what a pipeline's restart
 * key holds beside its files' key.
 *
 * @example
 * ```ts
 * import { siteKey } from "./restart_key.ts";
 * import { resolveSite } from "./site.ts";
 * import { loadConfigFile } from "../config/load.ts";
 * const key = siteKey(await resolveSite(await loadConfigFile("content/services.yaml")), false);
 * ```
 */
export function siteKey(site: ResolvedSite, keepBody: boolean): string {
  return sha256HexSync(
    stableJson({ config: site.config, pages: site.pages, warnings: site.warnings, keepBody }),
  );
}

/** What a vouched restart's content key says besides the site's key. */
const GIT_VOUCHED = "files vouched for by git";

/**
 * What `Pipeline.gitVouch`'s `content` of a server's pipeline would be
 * (`pipeline.ts`), for a site whose {@link siteKey} is `key`: that key,
 * marked as vouched for by git.
 *
 * @example
 * ```ts
 * import { vouchedContent } from "./restart_key.ts";
 * vouchedContent("ab12"); // the key joined with what git vouches for
 * ```
 */
export function vouchedContent(key: string): string {
  return joinKeys(key, GIT_VOUCHED)!;
}
