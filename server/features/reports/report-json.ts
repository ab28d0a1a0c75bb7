// The report's lines as JSON records.
import { scaledToDecimal } from "../../../db/contracts/decimal";
import type { TReportColumn, TReportRecord } from "../../../db/contracts/reports";
import { COLUMNS, SPECS } from "./report-columns";
import type { TLine } from "./report-lines";
import type { TReportLookups } from "./report-lookups";

/**
 * The page's lines as JSON records: exact decimal strings for money and weights, YYYY-MM-DD dates.
 * `columns`: only these keys (in the attributes' order), for a caller that needs a few.
 */
export function toJsonRecords(
  rows: TLine[],
  l: TReportLookups,
  columns: readonly TReportColumn[] = COLUMNS,
): TReportRecord[] {
  return rows.map((r) => {
    const record = {} as TReportRecord;
    for (const name of columns) {
      const spec = SPECS[name];
      switch (spec.kind) {
        case "dict": {
          const index = spec.index(r);
          record[name] = index === null ? null : spec.dict(l).values[index];
          break;
        }
        case "scaled": {
          const value = spec.value(r);
          record[name] = value === null ? null : scaledToDecimal(value, spec.scale);
          break;
        }
        case "int":
        case "bool":
          record[name] = spec.value(r);
          break;
        default:
          record[name] = spec.value(r);
      }
    }
    return record;
  });
}
