import type { ListEntry, ParsedList } from "../types";
import { guessEntityType } from "./entity-type";
import {
  decodeListText,
  headerFields,
  type ListBytes,
  parseDelimited,
  sha256Hex,
  toIsoDate,
  unique,
} from "./text";

/** sourceList of Denied Persons List entries. */
export const BIS_DPL_LIST = "BIS DPL";

const DPL_COLUMNS = [
  "name",
  "street_address",
  "city",
  "state",
  "country",
  "postal_code",
  "effective_date",
  "expiration_date",
  "standard_order",
  "last_update",
  "action",
  "fr_citation",
];

const US_STATES = new Set(
  "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR GU VI".split(
    " ",
  ),
);

/**
 * Parses the BIS Denied Persons List as BIS publishes it (tab-separated, quoted, header row
 * Name/Street_Address/.../FR_Citation). One entry per person and effective date; their address
 * rows are merged. The DPL has no entity type, so it is guessed from the name.
 */
export function parseDpl(bytes: ListBytes): ParsedList {
  const label = "DPL";
  const text = decodeListText(bytes, label);
  // Checked first: another list's file should be named as such, not fail on its quoting.
  const header = headerFields(text, "\t", label);
  if (DPL_COLUMNS.some((column, i) => header[i] !== column)) {
    throw new Error(`${label}: line 1: expected header ${DPL_COLUMNS.join("\t")}`);
  }
  const rows = parseDelimited(text, "\t", label);
  const latestPlausibleDate = new Date(Date.now() + 366 * 86_400_000).toISOString().slice(0, 10);
  const merged = new Map<string, ListEntry>();
  let latest: string | undefined;
  for (const row of rows.slice(1)) {
    if (row.fields.length !== DPL_COLUMNS.length) {
      throw new Error(
        `${label}: line ${row.line}: expected ${DPL_COLUMNS.length} columns, found ${row.fields.length}`,
      );
    }
    const [
      name,
      street,
      city,
      state,
      country,
      postal,
      effective,
      expiration,
      ,
      lastUpdate,
      action,
      citation,
    ] = row.fields.map((v) => v.trim()) as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    if (name === "") throw new Error(`${label}: line ${row.line}: empty name`);
    const updated = toIsoDate(lastUpdate);
    // The 2022 file has a Last_Update of 3017-08-22; a typo must not become the list date.
    if (
      updated !== undefined &&
      updated <= latestPlausibleDate &&
      (latest === undefined || updated > latest)
    ) {
      latest = updated;
    }
    // A US state with no country is a US address; BIS leaves the country blank for many of them.
    const countryCode = country !== "" ? country : US_STATES.has(state) ? "US" : "";
    const address = [street, city, state, postal, countryCode].filter((p) => p !== "").join(", ");
    const effectiveIso = toIsoDate(effective);
    const key = `${name.toUpperCase()}|${effectiveIso ?? effective}`;
    const existing = merged.get(key);
    if (existing !== undefined) {
      if (address !== "") existing.addresses = unique([...existing.addresses, address]);
      if (countryCode !== "") existing.countries = unique([...existing.countries, countryCode]);
      continue;
    }
    const expires = toIsoDate(expiration);
    const remarks = [action, citation, expires !== undefined ? `expires ${expires}` : ""].filter(
      (r) => r !== "",
    );
    merged.set(key, {
      sourceList: BIS_DPL_LIST,
      sourceId: key,
      entityType: guessEntityType(name),
      name,
      aliases: [],
      programs: [],
      addresses: address !== "" ? [address] : [],
      countries: countryCode !== "" ? [countryCode] : [],
      remarks: remarks.join("; ") || undefined,
      publishedAt: effectiveIso,
    });
  }
  return {
    list: BIS_DPL_LIST,
    entries: [...merged.values()],
    rowCount: rows.length - 1,
    checksum: sha256Hex(bytes),
    publishedAt: latest,
    warnings: [],
  };
}
