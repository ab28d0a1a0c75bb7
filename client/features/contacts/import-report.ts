import type { TImportReport } from "../../../db/contracts/contacts";

type TRejections = Pick<TImportReport, "rejected" | "rejected_rows" | "rejected_rows_truncated">;

const count = (n: number) => n.toLocaleString("en-US");

/**
 * 'Showing the first 1,000 of 4,321 rejected rows.' when the server detailed only some of them;
 * null when every rejected row is listed.
 */
export function truncationNote(report: TRejections): string | null {
  const isTruncated = report.rejected_rows_truncated || report.rejected_rows.length < report.rejected;
  if (!isTruncated) return null;
  return `Showing the first ${count(report.rejected_rows.length)} of ${count(report.rejected)} rejected rows.`;
}

/** A CSV of the rejected rows, for fixing and importing again; says so first when it is not all of them. */
export function rejectedCsv(report: TRejections): string {
  const cell = (v: string) => `"${v.replace(/"/g, '""')}"`;
  const note = truncationNote(report);
  return [
    "line,reasons",
    ...(note ? [`,${cell(`${note} Fix these and import the file again to see the rest.`)}`] : []),
    ...report.rejected_rows.map((r) => `${r.line},${cell(r.errors.join("; "))}`),
  ].join("\r\n");
}
