/**
 * Parses a front-matter date: `YYYY-MM-DD`, an ISO 8601 date-time or a YAML
 * timestamp (with `T` or a space, optional seconds and fraction, `Z`,
 * `±HH:MM`, `±HHMM` as Jekyll writes it, or `±H`; UTC when no zone is given)
 * or an integer of Unix seconds. Impossible dates such as
 * `2026-02-30` are rejected rather than rolled over.
 *
 * @returns epoch milliseconds, or `undefined` when the value is not a date.
 *
 * @example
 * ```ts
 * import { parseDate } from "./dates.ts";
 * parseDate("2026-01-15"); // 1768435200000
 * parseDate("2026-02-30"); // undefined
 * ```
 */
export function parseDate(value: unknown): number | undefined {
  if (typeof value === "number") {
    return Number.isSafeInteger(value) ? inYears(value * 1000) : undefined;
  }
  if (value instanceof Date) return inYears(value.getTime());
  if (typeof value !== "string") return undefined;
  const m = DATE.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone = "Z"] = m;
  const year = +y, month = +mo, day = +d, hour = +h, minute = +mi, second = +s;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offset = 0;
  if (zone !== "Z" && zone !== "z") {
    // ±HH:MM, ±HHMM (Jekyll writes +0200) or ±H (YAML timestamps allow one digit).
    const [, sign, zh, zm = "0"] = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(zone)!;
    if (+zh > 23 || +zm > 59) return undefined;
    offset = (sign === "-" ? -1 : 1) * (+zh * 60 + +zm);
  }
  const ms = frac ? Math.round(Number(`0.${frac}`) * 1000) : 0;
  // setUTCFullYear, not Date.UTC, which reads the years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return inYears(date.setUTCHours(hour, minute - offset, second, ms));
}

/** The first and last instants of the years 0001–9999, the years a date may have (SPEC 4). */
const FIRST = new Date(0).setUTCFullYear(1, 0, 1);
const LAST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function inYears(ms: number): number | undefined {
  return Number.isFinite(ms) && ms >= FIRST && ms <= LAST ? ms : undefined;
}

const DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?[ ]?(Z|z|[+-]\d{1,2}(?::?\d{2})?)?)?$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(2000 + (year % 400), month, 0)).getUTCDate();
}

/**
 * Prints epoch milliseconds as a UTC calendar date, `YYYY-MM-DD`.
 *
 * @example
 * ```ts
 * import { formatDay } from "./dates.ts";
 * formatDay(Date.UTC(2026, 0, 15, 23, 59)); // "2026-01-15"
 * ```
 */
export function formatDay(ms: number): string {
  // Years 1000–9999 by arithmetic (every file's two dates, at every start):
  // no Date object and no 24-character string to slice; others as `Date` prints them.
  if (!(ms >= YEAR_1000 && ms < YEAR_10000)) return new Date(ms).toISOString().slice(0, 10);
  // Howard Hinnant's civil_from_days, of the time `Date` keeps (its fraction cut toward zero).
  const z = Math.floor(Math.trunc(ms) / 86_400_000) + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) -
      Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${month < 10 ? "0" : ""}${month}-${day < 10 ? "0" : ""}${day}`;
}

/** 1000-01-01 and 10000-01-01, UTC, in epoch ms: the years {@link formatDay} prints by arithmetic. */
const YEAR_1000 = Date.UTC(1000, 0, 1);
const YEAR_10000 = Date.UTC(10000, 0, 1);

/**
 * Prints epoch milliseconds as UTC `YYYY-MM-DD HH:MM:SS` (the feed's `meta.generated`).
 *
 * @example
 * ```ts
 * import { formatTimestamp } from "./dates.ts";
 * formatTimestamp(Date.UTC(2026, 10, 21, 9, 15, 2)); // "2026-11-21 09:15:02"
 * ```
 */
export function formatTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}
