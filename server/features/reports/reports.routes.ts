import { Hono } from "hono";
import {
  ARROW_STREAM_TYPE,
  REPORT_ATTRIBUTES,
  REPORT_JSON_MAX_LINES,
  REPORT_SUMMARY_MAX_RECORDS,
  ZReportDataQuery,
} from "../../../db/contracts/reports";
import { gzipStreamFor } from "../../lib/compress";
import type { TAppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { exportLimiter } from "../../lib/heavy-work";
import { validate } from "../../lib/validate";
import { authOf, requireAuth } from "../auth/auth.middleware";
import { warmPivot } from "./pivot/pivot-service";
import {
  reportArrowStream,
  reportJsonRecords,
  reportLineCount,
  reportRowSource,
  reportSummaryArrow,
  reportSummaryRecords,
  reportSummaryRowSource,
} from "./reports.service";

/**
 * GET /api/reports-attributes → `{data: [{name, label, type, aggregate, description?}], pivot}`: the
 * report's columns, and where the workspace's pivot runs: "server" from REPORTS_SERVER_PIVOT_LINES
 * lines on (the /api/reports/pivot socket), "browser" below (the Arrow stream of every line).
 */
export const reportAttributesRoutes = new Hono<TAppEnv>().use(requireAuth()).get("/", async (c) => {
  const threshold = c.var.env.reportsServerPivotLines;
  let pivot: "server" | "browser" = "server";
  if (threshold > 0) {
    const rows = reportSummaryRowSource(c.var.db.$client, c.var.env.databaseUrl);
    pivot = (await reportLineCount(rows, authOf(c).workspaceId)) >= threshold ? "server" : "browser";
  }
  // The screen connects next: its lines load meanwhile (while the page and the viewer download).
  if (pivot === "server") {
    warmPivot(
      { databaseUrl: c.var.env.databaseUrl, authToken: c.var.env.databaseAuthToken },
      authOf(c).workspaceId,
    );
  }
  return c.json({ data: REPORT_ATTRIBUTES, pivot });
});

/**
 * GET /api/reports-data: one record per line of the workspace's non-template shipments.
 * `Accept: application/vnd.apache.arrow.stream` or `?format=arrow` streams Apache Arrow IPC, batch by
 * batch (`?names=labels` names its columns by label; `?columns=a,b` sends only those keys); otherwise `{data: [...]}` JSON, up to REPORT_JSON_MAX_LINES lines (413 above, naming Arrow).
 * `?group_by=a,b&sum=c` answers a summary instead (one record per combination, sums by SQL), in either format,
 * up to REPORT_SUMMARY_MAX_RECORDS combinations (413 above, naming fewer columns or the lines).
 */
export const reportDataRoutes = new Hono<TAppEnv>()
  .use(requireAuth())
  .get("/", exportLimiter.middleware(), validate("query", ZReportDataQuery), async (c) => {
    const { workspaceId } = authOf(c);
    const client = c.var.db.$client;
    const rows = reportRowSource(client, c.var.env.databaseUrl);
    const { format, names, columns, group_by: groupBy, sum } = c.req.valid("query");
    const wantsArrow = format
      ? format === "arrow"
      : (c.req.header("accept") ?? "").includes(ARROW_STREAM_TYPE);
    if (groupBy) {
      const rows = reportSummaryRowSource(client, c.var.env.databaseUrl);
      // A summary is built whole in memory, so it is capped in both formats (a shipment × product
      // grouping is about one record per line): the lines stream instead.
      const tooMany = () =>
        new AppError(
          "PAYLOAD_TOO_LARGE",
          `This summary has more than ${REPORT_SUMMARY_MAX_RECORDS.toLocaleString("en-US")} combinations of ${groupBy.join(", ")}, too many for a summary. Group by fewer or coarser columns (a shipment with a product is about one per line), or ask for the lines themselves without group_by and sum, as Apache Arrow: ?format=arrow or Accept: ${ARROW_STREAM_TYPE}.`,
        );
      if (wantsArrow) {
        const bytes = await reportSummaryArrow(client, rows, workspaceId, { groupBy, sums: sum, names });
        if (!bytes) throw tooMany();
        return new Response(bytes as Uint8Array<ArrayBuffer>, {
          headers: { "content-type": ARROW_STREAM_TYPE, "cache-control": "no-store" },
        });
      }
      const records = await reportSummaryRecords(client, rows, workspaceId, groupBy, sum);
      if (!records) throw tooMany();
      return c.json({ data: records, total: records.length });
    }
    if (wantsArrow) {
      const stream = await reportArrowStream(client, rows, workspaceId, { names, columns });
      const { body, headers } = gzipStreamFor(c.req.header("accept-encoding"), stream, {
        "content-type": ARROW_STREAM_TYPE,
        "cache-control": "no-store",
      });
      return new Response(body, { headers });
    }
    const records = await reportJsonRecords(client, rows, workspaceId, REPORT_JSON_MAX_LINES, columns);
    if (!records) {
      throw new AppError(
        "PAYLOAD_TOO_LARGE",
        `This workspace has more than ${REPORT_JSON_MAX_LINES.toLocaleString("en-US")} report lines, too many for JSON. Ask for Apache Arrow instead: ?format=arrow or Accept: ${ARROW_STREAM_TYPE}.`,
      );
    }
    return c.json({ data: records, total: records.length });
  });
