/** The names of the five content plugins, in SPEC 3's order. */
export const CONTENT_PLUGINS = ["academy", "blog", "docs", "faq", "pages"] as const;

/** A content plugin's name, which is also its `type`. */
export type ContentPluginName = typeof CONTENT_PLUGINS[number];

/** What a content plugin is: SPEC 3's table, one row each. */
export interface PluginDeclaration {
  /** The plugin's `type` field. */
  readonly type: ContentPluginName;
  /** Category by depth (1 = top level). */
  readonly categories: readonly string[];
  /** Default include globs, relative to the plugin's folder. */
  readonly include: readonly string[];
  /** Deepest level that is content; deeper files are left out with a warning. */
  readonly maxDepth: number;
  /** Whether an item's `time` is the sum of its children's (academy). */
  readonly sumsTime: boolean;
}

const MARKDOWN = ["**/*.md", "**/*.markdown", "**/*.mdx"];

/**
 * The five plugin declarations, keyed by name.
 *
 * @example
 * ```ts
 * import { PLUGINS } from "./plugins.ts";
 * PLUGINS.academy.categories; // ["course", "module", "lesson"]
 * ```
 */
export const PLUGINS: Readonly<Record<ContentPluginName, PluginDeclaration>> = {
  academy: {
    type: "academy",
    categories: ["course", "module", "lesson"],
    include: MARKDOWN,
    maxDepth: 3,
    sumsTime: true,
  },
  blog: {
    type: "blog",
    categories: ["post"],
    include: MARKDOWN,
    maxDepth: Infinity,
    sumsTime: false,
  },
  docs: {
    type: "docs",
    categories: ["doc"],
    include: MARKDOWN,
    maxDepth: Infinity,
    sumsTime: false,
  },
  faq: {
    type: "faq",
    categories: ["question"],
    include: MARKDOWN,
    maxDepth: Infinity,
    sumsTime: false,
  },
  pages: {
    type: "pages",
    categories: ["page"],
    include: [".md", ".markdown", ".mdx", ".html"],
    maxDepth: Infinity,
    sumsTime: false,
  },
};

/**
 * The category of an item at a depth (1-based); the last category repeats below it.
 *
 * @example
 * ```ts
 * import { categoryAt, PLUGINS } from "./plugins.ts";
 * categoryAt(PLUGINS.academy, 2); // "module"
 * ```
 */
export function categoryAt(plugin: PluginDeclaration, depth: number): string {
  return plugin.categories[Math.min(depth, plugin.categories.length) - 1];
}
