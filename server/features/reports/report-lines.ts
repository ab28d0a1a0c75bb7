// Reading the report's lines page by page: the SQL, and each shipment's columns computed once for all
// of its lines.
import { SCREENING_VALUES } from "../../../db/contracts/reports";
import { toUsdCents } from "../../../db/contracts/usd-rate";
import type { TextDictionary } from "./report-dictionary";
import type { TProduct, TReportLookups } from "./report-lookups";
import type { TRow, TRowSource } from "./report-row-source";

/** Lines per SQL page and per Arrow record batch: big enough to amortise, small enough to stay flat in memory. */
export const REPORT_BATCH_LINES = 32_768;

/**
 * One page of lines, keyset-paginated over the item id: only the item's own numbers. Templates
 * (status 1) are not lines. CROSS JOIN keeps shipment_items as the outer loop (SQLite does not
 * reorder it), so each page walks the item ids from the last one on and stops at the limit; with a
 * plain JOIN the planner started from the workspace's shipments and sorted all their lines per page.
 */
const ITEMS_SQL = `
select i.id, i.shipment_id, i.product_id, i.quantity, i.extended_value
from shipment_items i
cross join shipments s on s.id = i.shipment_id
where s.workspace_id = ? and s.shipping_status_id <> 1 and i.id > ?
order by i.id
limit ?`;

/**
 * The shipments of one page, once each (a shipment has several lines): ids and numbers only. The
 * page's ids drive the join (CROSS JOIN keeps json_each outside), so each shipment is one primary-key
 * look-up. Written as `s.id in (select value from json_each(?))` the planner walked the workspace
 * index instead and read every shipment of the workspace for every page: 1M lines took ~4.5 s of CPU.
 */
export const SHIPMENTS_SQL = `
select s.id, s.name, s.shipper_reference_number, s.shipping_status_id, s.ship_date, s.carrier_id,
  s.mode_of_transport_id, s.incoterm_id, s.currency_id, s.exporter_of_record_id,
  s.importer_of_record_id, s.ultimate_consignee_id, s.total_invoice_value,
  (select coalesce(sum(p.gross_weight), 0) from shipment_packages p where p.shipment_id = s.id),
  s.user_id, s.updated_by_user_id, s.usd_exchange_rate
from json_each(?) j
cross join shipments s on s.id = j.value
where s.workspace_id = ?`;

/** A shipment's columns, computed once for all of its lines: strings as dictionary indexes. */
export type TShipment = {
  id: number;
  name: string;
  ref: string;
  status: number | null;
  date: string | null;
  /** The ship date as days since 1970-01-01 (Arrow's DateDay), its year, and its YYYY-MM as a `month` index. */
  days: number | null;
  year: number | null;
  month: number | null;
  carrier: number | null;
  createdBy: number | null;
  editedBy: number | null;
  mode: number | null;
  incoterm: number | null;
  currency: number | null;
  exporter: number | null;
  importer: number | null;
  consignee: number | null;
  destination: number | null;
  exporterScreening: number | null;
  importerScreening: number | null;
  consigneeScreening: number | null;
  partiesScreening: number;
  invoiceCents: number;
  grossGrams: number;
  /** The shipment's currency code (null without one) and its stored USD exchange rate, for the USD column. */
  currencyCode: string | null;
  usdRate: string;
};

/** One report line: its shipment, its product and its own numbers. */
export type TLine = {
  shipment: TShipment;
  product: TProduct | undefined;
  quantity: number;
  extendedCents: number;
  /** The line's value in US cents, or null when its shipment's currency has no usable rate. */
  usdCents: number | null;
};

const PASSED = SCREENING_VALUES.indexOf("passed");
const FAILED = SCREENING_VALUES.indexOf("failed");
const NOT_SCREENED_INDEX = SCREENING_VALUES.indexOf("not screened");

/** Failed if any named party failed, passed if every named party passed, else not screened. */
function partiesOutcome(a: number | null, b: number | null, c: number | null): number {
  if (a === FAILED || b === FAILED || c === FAILED) return FAILED;
  if (a === null && b === null && c === null) return NOT_SCREENED_INDEX;
  return (a ?? PASSED) === PASSED && (b ?? PASSED) === PASSED && (c ?? PASSED) === PASSED
    ? PASSED
    : NOT_SCREENED_INDEX;
}

/** A month's index in the `month` dictionary, or null when it has none (first used after the look-ups were read). */
function monthIndex(l: TReportLookups, date: string, year: number, month: number): number | null {
  if (l.monthBase === null) return l.month.find(date.slice(0, 7));
  const index = year * 12 + month - 1 - l.monthBase;
  return index >= 0 && index < l.month.values.length ? index : null;
}

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A nullable id column as a number. */
function idOf(value: unknown): number | null {
  return value === null ? null : Number(value);
}

/** The dictionary index of a reference row (carrier, status…) by its id, or null. */
function lookup(d: TextDictionary, id: number | null): number | null {
  return id === null ? null : (d.byId.get(id) ?? null);
}

/** A contact's newest screening outcome (as an index into SCREENING_VALUES), or null without a contact. */
function screeningOf(l: TReportLookups, contact: number | null): number | null {
  return contact === null ? null : (l.contactScreening.get(contact) ?? NOT_SCREENED_INDEX);
}

const DAY_MS = 86_400_000;

/** A line's value in US cents at its shipment's rate (exact, half up), as the EEI values are converted. */
function usdCentsOf(cents: number, shipment: TShipment): number | null {
  if (shipment.currencyCode === "USD" || shipment.currencyCode === null) return cents;
  const usd = toUsdCents(BigInt(cents), shipment.currencyCode, shipment.usdRate);
  return usd === null ? null : Number(usd);
}

/** One shipment's columns, computed once for all of its lines (plain code: it runs once per shipment). */
export function toShipment(r: TRow, l: TReportLookups): TShipment {
  const exporter = idOf(r[9]);
  const importer = idOf(r[10]);
  const consignee = idOf(r[11]);
  const exporterScreening = screeningOf(l, exporter);
  const importerScreening = screeningOf(l, importer);
  const consigneeScreening = screeningOf(l, consignee);
  const raw = r[4];
  const date = typeof raw === "string" && DATE_PATTERN.test(raw) ? raw : null;
  let year: number | null = null;
  let days: number | null = null;
  let month: number | null = null;
  if (date !== null) {
    year = Number(date.slice(0, 4));
    const monthOfYear = Number(date.slice(5, 7));
    days = Date.UTC(year, monthOfYear - 1, Number(date.slice(8, 10))) / DAY_MS;
    // A month first used after the look-ups were read (a shipment saved during the stream) has no
    // dictionary entry yet: that line's month stays empty until the next load, in JSON and Arrow alike.
    month = monthIndex(l, date, year, monthOfYear);
  }
  const consigneeCountry = consignee === null ? undefined : l.contactCountry.get(consignee);
  const importerCountry = importer === null ? undefined : l.contactCountry.get(importer);
  return {
    id: Number(r[0]),
    name: String(r[1]),
    ref: String(r[2]),
    status: lookup(l.status, idOf(r[3])),
    date,
    days,
    year,
    month,
    carrier: lookup(l.carrier, idOf(r[5])),
    createdBy: lookup(l.createdBy, idOf(r[14])),
    editedBy: lookup(l.editedBy, idOf(r[15])),
    mode: lookup(l.mode, idOf(r[6])),
    incoterm: lookup(l.incoterm, idOf(r[7])),
    currency: lookup(l.currency, idOf(r[8])),
    exporter: lookup(l.exporter, exporter),
    importer: lookup(l.importer, importer),
    consignee: lookup(l.consignee, consignee),
    destination: consigneeCountry ?? importerCountry ?? null,
    exporterScreening,
    importerScreening,
    consigneeScreening,
    partiesScreening: partiesOutcome(exporterScreening, importerScreening, consigneeScreening),
    invoiceCents: Number(r[12]),
    grossGrams: Number(r[13]),
    currencyCode: r[8] === null ? null : (l.currency.values[lookup(l.currency, idOf(r[8])) ?? -1] ?? null),
    usdRate: String(r[16] ?? ""),
  };
}

/**
 * Yields the workspace's non-template lines page by page, never holding more than one page: the
 * page's items, then its shipments in one query (each once, however many lines it has).
 */
export async function* readLinePages(
  rows: TRowSource,
  workspaceId: number,
  lookups: TReportLookups,
  pageSize = REPORT_BATCH_LINES,
): AsyncGenerator<TLine[]> {
  let after = 0;
  while (true) {
    const items = await rows(ITEMS_SQL, [workspaceId, after, pageSize]);
    if (items.length === 0) return;
    const ids = [...new Set(items.map((r) => Number(r[1])))];
    const shipmentRows = await rows(SHIPMENTS_SQL, [JSON.stringify(ids), workspaceId]);
    const shipments = new Map<number, TShipment>();
    for (const r of shipmentRows) shipments.set(Number(r[0]), toShipment(r, lookups));
    const lines: TLine[] = [];
    for (const r of items) {
      const shipment = shipments.get(Number(r[1]));
      if (!shipment) continue;
      const extendedCents = Number(r[4]);
      lines.push({
        shipment,
        product: lookups.products.get(Number(r[2])),
        quantity: Number(r[3]),
        extendedCents,
        usdCents: usdCentsOf(extendedCents, shipment),
      });
    }
    yield lines;
    if (items.length < pageSize) return;
    after = Number(items[items.length - 1][0]);
  }
}
