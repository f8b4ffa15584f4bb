import { answer, type Plan, TYPES } from "../feed/plan.ts";
import type { RouteInput } from "./input.ts";
import { openApiDocument } from "./openapi.ts";

/** One enabled route as `GET /` lists it. */
export interface HomeRoute {
  /** Its path as OpenAPI writes it (`/{type}/{uri}.json`), under the base URL. */
  readonly path: string;
  /** Its URL on the base URL (a template where the path has parameters). */
  readonly url: string;
  /** The methods it answers. */
  readonly methods: readonly string[];
  /** What it answers: the OpenAPI operation's summary. */
  readonly summary: string;
}

/**
 * `GET /`: a short JSON index of the routes the configuration enables, each
 * with its URL, methods and what it answers (the summaries of the OpenAPI
 * document, which has the rest), so that the root of a new server answers
 * a newcomer, or a crawler, with where to go.
 *
 * @example
 * ```ts
 * import { homePlan } from "./home.ts";
 * declare const input: import("./input.ts").RouteInput;
 * homePlan(input).kind; // "answer"
 * ```
 */
export function homePlan(r: RouteInput): Plan {
  const { index, base } = r;
  return answer("home", TYPES.json, () => {
    const document = openApiDocument(index, base) as {
      info: { title: string };
      paths: Record<string, Record<string, { summary: string }>>;
    };
    const routes: HomeRoute[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      const [method, operation] = Object.entries(operations)[0];
      routes.push({
        path,
        url: `${base}${path}`,
        methods: method === "get" ? ["GET", "HEAD"] : [method.toUpperCase()],
        summary: operation.summary,
      });
    }
    return JSON.stringify({
      title: document.info.title,
      ...(index.settings.description ? { description: index.settings.description } : {}),
      openapi: `${base}/api/openapi.json`,
      routes,
    });
  });
}
