import { z } from "zod";
import { REPORT_GROUPABLE, REPORT_SUMMABLE } from "./report-summary";

// The columns live in a module without zod (the reports screen loads them first); re-exported here.
export {
  REPORT_ATTRIBUTES,
  type TReportAttribute,
  type TReportColumn,
  type TReportType,
} from "./report-attributes";

import { REPORT_ATTRIBUTES, type TReportColumn } from "./report-attributes";

/** One JSON record: floats travel as exact decimal strings ("1234.50"), dates as YYYY-MM-DD. */
export type TReportRecord = Record<TReportColumn, string | number | boolean | null>;

/** The Arrow IPC stream media type (also `?format=arrow`). */
export const ARROW_STREAM_TYPE = "application/vnd.apache.arrow.stream";

/**
 * JSON answers stop at this many lines: a million JSON records would be ~500 MB of text and far
 * slower for the browser than Arrow. Above it the API answers 413 and names the Arrow format.
 */
export const REPORT_JSON_MAX_LINES = 50_000;

/**
 * A summary (`?group_by=`) stops at this many combinations, in JSON and Arrow alike: it is read and
 * encoded whole in memory, and grouping by a shipment and a product gives about one per line.
 * Above it the API answers 413 and says to group by fewer columns or to ask for the lines.
 */
export const REPORT_SUMMARY_MAX_RECORDS = 50_000;

// The summary's columns live in a module without zod: the /reports route (in the app's first bundle) needs them.
export { REPORT_GROUPABLE, REPORT_SUMMABLE } from "./report-summary";

/** A comma-separated list of column keys, each one of `allowed`; `what` names the parameter in the 422. */
function columnList<T extends string>(allowed: readonly T[], what: string, example: string) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const keys = [
        ...new Set(
          value
            .split(",")
            .map((k) => k.trim())
            .filter(Boolean),
        ),
      ];
      const unknown = keys.filter((k) => !(allowed as readonly string[]).includes(k));
      if (keys.length === 0 || unknown.length > 0) {
        ctx.addIssue({
          code: "custom",
          message: `${keys.length === 0 ? `${what} is empty` : `${what} cannot use ${unknown.join(", ")}`}: give one or more of ${allowed.join(", ")}, comma-separated (e.g. ${what}=${example})`,
        });
        return z.NEVER;
      }
      return keys as T[];
    });
}

export const ZReportDataQuery = z
  .object({
    format: z.enum(["json", "arrow"], { error: "format must be json or arrow" }).optional(),
    /**
     * `labels` names the Arrow columns by their labels ("Extended value"), which is what the pivot shows;
     * the default is the keys (`extended_value`). JSON records are always keyed by name.
     */
    names: z.enum(["keys", "labels"], { error: "names must be keys or labels" }).optional(),
    /**
     * Only these columns, by key, comma-separated (`?columns=destination_country,status,extended_value`):
     * still one record per line, so every aggregate of those columns is the same as over all of them.
     * The screen loads the columns its first view needs this way, then the rest.
     */
    columns: z
      .string()
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return undefined;
        const keys = value
          .split(",")
          .map((k) => k.trim())
          .filter(Boolean);
        const known = new Set<string>(REPORT_ATTRIBUTES.map((a) => a.name));
        const unknown = keys.filter((k) => !known.has(k));
        if (keys.length === 0 || unknown.length > 0) {
          ctx.addIssue({
            code: "custom",
            message: `${keys.length === 0 ? "columns is empty" : `Unknown report column ${unknown.join(", ")}`}: give column keys from /api/reports-attributes, comma-separated (e.g. columns=status,extended_value)`,
          });
          return z.NEVER;
        }
        return keys as TReportColumn[];
      }),
    /**
     * A summary instead of lines (`?group_by=destination_country,status&sum=extended_value`): one
     * record per distinct combination of the `group_by` columns, with `sum` columns added up by SQL
     * over that combination's lines (exact: integer cents). A pivot over these columns that sums the
     * `sum` columns shows exactly what it shows over the lines; any other aggregate (count, avg…) does
     * not, so the screen uses it only for its first view and swaps in the lines.
     */
    group_by: columnList(REPORT_GROUPABLE, "group_by", "destination_country,status"),
    sum: columnList(REPORT_SUMMABLE, "sum", "extended_value"),
  })
  .superRefine((query, ctx) => {
    if (query.sum && !query.group_by) {
      ctx.addIssue({
        code: "custom",
        path: ["sum"],
        message:
          "sum needs group_by: name the columns to group by too (e.g. group_by=status&sum=extended_value)",
      });
    }
    if (query.group_by && query.columns) {
      ctx.addIssue({
        code: "custom",
        path: ["columns"],
        message:
          "columns cannot be combined with group_by: a summary has exactly its group_by and sum columns",
      });
    }
  });

/** Screening outcomes as report values. */
export const SCREENING_VALUES = ["passed", "failed", "not screened"] as const;
