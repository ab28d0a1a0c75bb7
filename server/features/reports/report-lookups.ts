// The workspace's strings behind the lines' ids (reference tables, contacts, products, screenings,
// ship months), read once per request before the first line.
import type { Client } from "@libsql/client";
import { SCREENING_VALUES } from "../../../db/contracts/reports";
import { TextDictionary } from "./report-dictionary";

/** A product's columns as dictionary indexes, computed once per request. */
export type TProduct = {
  number: number;
  name: number;
  eccn: number;
  hts: number;
  origin: number;
  grams: number;
  hasLicense: boolean;
};

/** The workspace's strings behind the ids, loaded once per request. */
export type TReportLookups = {
  status: TextDictionary;
  /** The workspace's members by name: who created a shipment, and who saved it last. */
  createdBy: TextDictionary;
  editedBy: TextDictionary;
  month: TextDictionary;
  carrier: TextDictionary;
  mode: TextDictionary;
  incoterm: TextDictionary;
  currency: TextDictionary;
  exporter: TextDictionary;
  importer: TextDictionary;
  consignee: TextDictionary;
  country: TextDictionary;
  productNumber: TextDictionary;
  productName: TextDictionary;
  eccn: TextDictionary;
  hts: TextDictionary;
  origin: TextDictionary;
  exporterScreening: TextDictionary;
  importerScreening: TextDictionary;
  consigneeScreening: TextDictionary;
  partiesScreening: TextDictionary;
  products: Map<number, TProduct>;
  /**
   * Year × 12 + month − 1 of `month`'s first entry when it holds every month from the workspace's
   * first ship date to its last (so a month's index is arithmetic), else null (look it up by name).
   */
  monthBase: number | null;
  /** Contact id → index of its country in `country`. */
  contactCountry: Map<number, number>;
  /** Contact id → index into SCREENING_VALUES of its newest screening outcome. */
  contactScreening: Map<number, number>;
};

/** Reads the lookups the lines refer to: reference tables plus this workspace's contacts, products and screenings. */
export async function loadLookups(client: Client, workspaceId: number): Promise<TReportLookups> {
  let nextId = 0;
  const dict = () => new TextDictionary(nextId++);
  const screeningDict = () => {
    const d = dict();
    for (const value of SCREENING_VALUES) d.add(value);
    return d;
  };
  const l: TReportLookups = {
    status: dict(),
    createdBy: dict(),
    editedBy: dict(),
    month: dict(),
    carrier: dict(),
    mode: dict(),
    incoterm: dict(),
    currency: dict(),
    exporter: dict(),
    importer: dict(),
    consignee: dict(),
    country: dict(),
    productNumber: dict(),
    productName: dict(),
    eccn: dict(),
    hts: dict(),
    origin: dict(),
    exporterScreening: screeningDict(),
    importerScreening: screeningDict(),
    consigneeScreening: screeningDict(),
    partiesScreening: screeningDict(),
    products: new Map(),
    monthBase: null,
    contactCountry: new Map(),
    contactScreening: new Map(),
  };
  const [
    statuses,
    carriers,
    modes,
    incoterms,
    currencies,
    countries,
    contacts,
    products,
    screenings,
    months,
    members,
  ] = await client.batch(
    [
      "select id, label from shipping_statuses",
      "select id, name from carriers",
      "select id, name from modes_of_transport",
      "select id, code from incoterms",
      "select id, code from currencies",
      "select id, name from countries",
      { sql: "select id, company, country_id from contacts where workspace_id = ?", args: [workspaceId] },
      {
        sql: "select id, product_number, name, us_eccn, hts, country_of_origin_id, net_weight, has_license from products where workspace_id = ?",
        args: [workspaceId],
      },
      {
        // SQLite takes the bare column (status) from the row that has max(id): the newest outcome.
        sql: "select contact_id, status, max(id) from contact_screening_results where workspace_id = ? group by contact_id",
        args: [workspaceId],
      },
      {
        // The first and last ship dates: two seeks in shipments_ws_ship_date_idx.
        sql: `select (select ship_date from shipments where workspace_id = ?1 and ${VALID_DATE}
            order by ship_date limit 1),
          (select ship_date from shipments where workspace_id = ?1 and ${VALID_DATE}
            order by ship_date desc limit 1)`,
        args: [workspaceId],
      },
      {
        sql: "select id, name || ' ' || surname from users where workspace_id = ?",
        args: [workspaceId],
      },
    ],
    "read",
  );
  for (const r of members.rows) {
    l.createdBy.setId(Number(r[0]), String(r[1]));
    l.editedBy.setId(Number(r[0]), String(r[1]));
  }
  for (const r of statuses.rows) l.status.setId(Number(r[0]), String(r[1]).toUpperCase());
  for (const r of carriers.rows) l.carrier.setId(Number(r[0]), String(r[1]));
  for (const r of modes.rows) l.mode.setId(Number(r[0]), String(r[1]));
  for (const r of incoterms.rows) l.incoterm.setId(Number(r[0]), String(r[1]));
  for (const r of currencies.rows) l.currency.setId(Number(r[0]), String(r[1]));
  const countryName = new Map<number, string>();
  for (const r of countries.rows) {
    countryName.set(Number(r[0]), String(r[1]));
    l.country.setId(Number(r[0]), String(r[1]));
  }
  for (const r of contacts.rows) {
    const id = Number(r[0]);
    for (const d of [l.exporter, l.importer, l.consignee]) d.setId(id, String(r[1]));
    if (r[2] !== null) l.contactCountry.set(id, l.country.byId.get(Number(r[2]))!);
  }
  for (const r of products.rows) {
    const id = Number(r[0]);
    l.products.set(id, {
      number: l.productNumber.add(String(r[1])),
      name: l.productName.add(String(r[2])),
      eccn: l.eccn.add(String(r[3])),
      hts: l.hts.add(String(r[4])),
      origin: l.origin.add(countryName.get(Number(r[5])) ?? ""),
      grams: Number(r[6]),
      hasLicense: Number(r[7]) === 1,
    });
  }
  // Ship month is a dictionary (1 byte a line instead of a 7-character string), so its values must be
  // known before the first batch: every month from the first ship date to the last. Unused months in
  // between never show (a pivot groups the lines, not the dictionary).
  const [first, last] = [months.rows[0]?.[0], months.rows[0]?.[1]];
  if (typeof first === "string" && typeof last === "string") {
    const ordinal = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
    const [from, to] = [ordinal(first), ordinal(last)];
    if (to - from < MAX_MONTH_RANGE) {
      l.monthBase = from;
      for (let m = from; m <= to; m++) {
        l.month.add(
          `${String(Math.floor(m / 12)).padStart(4, "0")}-${String((m % 12) + 1).padStart(2, "0")}`,
        );
      }
    } else {
      // Dates centuries apart (a typo in a year): only the months in use, found by name.
      const used = await client.execute({
        sql: `select distinct substr(ship_date, 1, 7) from shipments where workspace_id = ? and ${VALID_DATE} order by 1`,
        args: [workspaceId],
      });
      for (const r of used.rows) l.month.add(String(r[0]));
    }
  }
  for (const r of screenings.rows) {
    l.contactScreening.set(Number(r[0]), SCREENING_VALUES.indexOf(r[1] as "passed" | "failed"));
  }
  return l;
}

/** A ship date that reads as YYYY-MM-DD (the only ones the report shows). */
const VALID_DATE = `ship_date between '0000-01-01' and '9999-12-31'
  and ship_date glob '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'`;
/** Up to two centuries of months as one contiguous dictionary; wider spans list only the months in use. */
export const MAX_MONTH_RANGE = 2400;
