// What the server-side pivot (/api/reports/pivot) offers, shared by its handler and the /reports
// screen (which keeps a saved setup's aggregates to these when it pivots on the server).

/** Where a workspace's report pivots (GET /api/reports-attributes says which). */
export type TReportPivot = "server" | "browser";

/** The viewer's name of the table a pivot connection hosts: its workspace's lines. */
export const REPORT_PIVOT_TABLE = "report_lines";

/**
 * Aggregates the server pivot offers by column kind: the ones DuckDB computes as the viewer's own
 * engine does over lines. `first`/`last` are left out: the viewer's engine takes them in line
 * order, and a SQL grouping has no order.
 */
export const REPORT_PIVOT_AGGREGATES = {
  number: ["sum", "count", "distinct count", "avg", "min", "max", "median"],
  other: ["count", "distinct count", "min", "max"],
  boolean: ["count", "distinct count"],
} as const;

/** The aggregate the server pivot uses for a column whose configured one it does not offer. */
export function serverPivotAggregate(aggregate: string, type: string): string {
  const offered: readonly string[] =
    type === "integer" || type === "float"
      ? REPORT_PIVOT_AGGREGATES.number
      : type === "boolean"
        ? REPORT_PIVOT_AGGREGATES.boolean
        : REPORT_PIVOT_AGGREGATES.other;
  if (offered.includes(aggregate)) return aggregate;
  return aggregate === "first" || aggregate === "last" ? (type === "boolean" ? "count" : "max") : "count";
}
