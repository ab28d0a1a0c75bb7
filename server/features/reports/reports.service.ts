// The report's entry points, as the routes call them: each reads the lines (or a summary of them) and
// encodes them as JSON records or an Arrow IPC stream.
import type { Client } from "@libsql/client";
import { RecordBatchStreamWriter } from "apache-arrow";
import {
  type REPORT_GROUPABLE,
  REPORT_SUMMARY_MAX_RECORDS,
  type TReportColumn,
  type TReportRecord,
} from "../../../db/contracts/reports";
import { ChunkSink, reportSchema, toRecordBatch } from "./report-arrow";
import { COLUMNS } from "./report-columns";
import { toJsonRecords } from "./report-json";
import { readLinePages } from "./report-lines";
import { loadLookups } from "./report-lookups";
import type { TRowSource } from "./report-row-source";
import { reportSummaryLines, summaryColumns } from "./report-summary";

// Where the routes (and the tests) choose where each query runs, and the summary's own pieces.
export { SHIPMENTS_SQL } from "./report-lines";
export { reportSummaryRowSource } from "./report-read-pool";
export { reportRowSource, type TRowSource } from "./report-row-source";
export { reportSummaryLines, summaryDrive } from "./report-summary";

/**
 * The workspace's lines as an Arrow IPC stream. Pull-driven: the next SQL page is read only when the
 * client has taken the previous batch, so a million lines never sit in memory at once.
 */
export async function reportArrowStream(
  client: Client,
  rows: TRowSource,
  workspaceId: number,
  options: { pageSize?: number; names?: "keys" | "labels"; columns?: readonly TReportColumn[] } = {},
): Promise<ReadableStream<Uint8Array>> {
  const lookups = await loadLookups(client, workspaceId);
  const columns = options.columns ? COLUMNS.filter((c) => options.columns?.includes(c)) : COLUMNS;
  const schema = reportSchema(lookups, options.names, columns);
  const sink = new ChunkSink();
  const writer = new RecordBatchStreamWriter();
  writer.reset(sink, schema);
  const pages = readLinePages(rows, workspaceId, lookups, options.pageSize);
  let isFirst = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // A page is synchronous work (bun:sqlite) and a fast reader pulls the next one at once, in
      // the same turn: without a turn of the event loop between pages, a million-line stream kept
      // every other request (the page's own scripts and WASM among them) waiting until its end.
      if (!isFirst) await new Promise<void>((resolve) => setImmediate(resolve));
      isFirst = false;
      const next = await pages.next();
      if (next.done) {
        // reset() above already wrote the schema, so an empty workspace is still a valid stream.
        writer.finish();
        const rest = sink.take();
        if (rest.byteLength) controller.enqueue(rest);
        controller.close();
        return;
      }
      writer.write(toRecordBatch(next.value, lookups, schema, columns));
      controller.enqueue(sink.take());
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
}

/** How many lines the workspace's report has (templates are not lines). */
export async function reportLineCount(rows: TRowSource, workspaceId: number): Promise<number> {
  const [row] = await rows(
    `select count(*) from shipment_items i cross join shipments s on s.id = i.shipment_id
     where s.workspace_id = ? and s.shipping_status_id <> 1`,
    [workspaceId],
  );
  return Number(row?.[0] ?? 0);
}

/** Every line as JSON records, or null when there are more than `limit` (the caller then points to Arrow). */
export async function reportJsonRecords(
  client: Client,
  rows: TRowSource,
  workspaceId: number,
  limit: number,
  only?: readonly TReportColumn[],
): Promise<TReportRecord[] | null> {
  const lookups = await loadLookups(client, workspaceId);
  const columns = only ? COLUMNS.filter((c) => only.includes(c)) : COLUMNS;
  const records: TReportRecord[] = [];
  for await (const lines of readLinePages(rows, workspaceId, lookups)) {
    if (records.length + lines.length > limit) return null;
    records.push(...toJsonRecords(lines, lookups, columns));
  }
  return records;
}

/**
 * A summary (reportSummaryLines) as an Arrow IPC stream of one record batch, the lines' dictionaries
 * and types; null above REPORT_SUMMARY_MAX_RECORDS combinations (the caller answers 413).
 */
export async function reportSummaryArrow(
  client: Client,
  rows: TRowSource,
  workspaceId: number,
  options: {
    groupBy: readonly (typeof REPORT_GROUPABLE)[number][];
    sums?: readonly TReportColumn[];
    names?: "keys" | "labels";
  },
): Promise<Uint8Array | null> {
  const summary = await reportSummaryLines(
    client,
    rows,
    workspaceId,
    options.groupBy,
    undefined,
    REPORT_SUMMARY_MAX_RECORDS,
  );
  if (!summary) return null;
  const { lines, lookups } = summary;
  const columns = summaryColumns(options.groupBy, options.sums);
  const schema = reportSchema(lookups, options.names, columns);
  const sink = new ChunkSink();
  const writer = new RecordBatchStreamWriter();
  writer.reset(sink, schema);
  if (lines.length > 0) writer.write(toRecordBatch(lines, lookups, schema, columns));
  writer.finish();
  return sink.take();
}

/**
 * A summary as JSON records: exact decimal strings for the summed money, as the lines' records;
 * null above REPORT_SUMMARY_MAX_RECORDS combinations (the caller answers 413).
 */
export async function reportSummaryRecords(
  client: Client,
  rows: TRowSource,
  workspaceId: number,
  groupBy: readonly (typeof REPORT_GROUPABLE)[number][],
  sums: readonly TReportColumn[] = [],
): Promise<TReportRecord[] | null> {
  const summary = await reportSummaryLines(
    client,
    rows,
    workspaceId,
    groupBy,
    undefined,
    REPORT_SUMMARY_MAX_RECORDS,
  );
  if (!summary) return null;
  return toJsonRecords(summary.lines, summary.lookups, summaryColumns(groupBy, sums));
}
