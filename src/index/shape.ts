// The shape of an item in one answer (SPEC 6.2 `fields` and `include`, SPEC
// 7's item form): which fields, in which order, and what they need of the
// item's file. One value from the parsed query to the writer.
import {
  type AnyField,
  FIELD_TABLE,
  FIELDS,
  type FieldSpec,
  type IncludeField,
  type ItemField,
  SEED_FIELDS,
} from "./item_fields.ts";

/** What an answer needs of its items' files, beyond the index. */
export interface FileNeeds {
  readonly body: boolean;
  /**
   * The body may come as a range of its file's bytes (written as JSON
   * straight from them); else it is text.
   */
  readonly bodyAsBytes?: boolean;
  readonly text: boolean;
  readonly sections: boolean;
}

/** The fields each item of an answer holds. */
export interface Shape {
  /** The fields, in the order they are written. */
  readonly fields: readonly FieldSpec<AnyField>[];
  /** The text before each field's value: `{"id":`, then `,"checksum":` and so on. */
  readonly keys: readonly string[];
  /**
   * How many fields at its start are the seed's fields, all of them in the
   * seed's order (those of an item are copied from the full feed's bytes),
   * or 0 when it does not start with them.
   */
  readonly seedPrefix: number;
  /** Exactly the seed's fields: the full feed's bytes hold the items. */
  readonly seed: boolean;
  /** What its fields need of the files; `undefined`: nothing. */
  readonly needs: FileNeeds | undefined;
  /** One spelling of the shape, for an answer's key. */
  readonly key: string;
}

/**
 * The shape of the given fields, in the order given.
 *
 * @example
 * ```ts
 * import { shapeOf } from "./shape.ts";
 * const shape = shapeOf(["id", "checksum", "last_update"]);
 * shape.keys; // ['{"id":', ',"checksum":', ',"last_update":']
 * shape.needs; // undefined
 * ```
 */
export function shapeOf(names: readonly AnyField[]): Shape {
  const fields = names.map((name) => FIELDS.get(name)!);
  const seedPrefix = SEED_FIELDS.every((name, i) => names[i] === name) ? SEED_FIELDS.length : 0;
  const need = (what: string) => fields.some((field) => field.needs === what);
  const needs = need("body") || need("text") || need("sections")
    ? { body: need("body"), bodyAsBytes: true, text: need("text"), sections: need("sections") }
    : undefined;
  return {
    fields,
    keys: names.map((name, i) => `${i === 0 ? "{" : ","}${JSON.stringify(name)}:`),
    seedPrefix,
    seed: seedPrefix === SEED_FIELDS.length && names.length === SEED_FIELDS.length,
    needs,
    key: names.join(","),
  };
}

/** The seed's shape: every feed item's fields when a query names none (SPEC 6). */
export const SEED_SHAPE: Shape = shapeOf(SEED_FIELDS);

/**
 * A feed answer's shape (SPEC 6.2): `fields` narrows the seed's fields
 * (the opt-in fields it names included) and `include` adds to what is left;
 * canonical order, `id` always.
 *
 * @example
 * ```ts
 * import { feedShape } from "./shape.ts";
 * feedShape(undefined, ["body"]).key; // "id,checksum,…,time,body"
 * feedShape(["last_update"], undefined).key; // "id,last_update"
 * ```
 */
export function feedShape(
  fields?: readonly ItemField[],
  include?: readonly IncludeField[],
): Shape {
  if (!fields && !include) return SEED_SHAPE;
  const chosen = new Set<string>([...(fields ?? SEED_FIELDS), ...(include ?? []), "id"]);
  return shapeOf(
    FIELD_TABLE.filter((spec) => spec.kind !== "form" && chosen.has(spec.name))
      .map((spec) => spec.name),
  );
}

/**
 * The item form's shape (SPEC 7): the seed's fields, then `body`, `parent`
 * and `children`, then what `include` adds (`url`, `text`, `sections`, in
 * that order; `body` is there already).
 *
 * @example
 * ```ts
 * import { formShape } from "./shape.ts";
 * formShape(["url"]).key; // "id,checksum,…,time,body,parent,children,url"
 * ```
 */
export function formShape(include: readonly IncludeField[]): Shape {
  const added = include.filter((field) => field !== "body");
  return shapeOf([...SEED_FIELDS, "body", "parent", "children", ...added]);
}
