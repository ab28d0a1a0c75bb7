import type { EntityType, ListEntry, ParsedList } from "../types";
import { guessEntityType } from "./entity-type";
import {
  decodeListText,
  headerFields,
  type ListBytes,
  parseDelimited,
  sha256Hex,
  splitMulti,
  toIsoDate,
  unique,
} from "./text";

/** Name of the list as a whole; entries carry "CSL:<code>" per source list. */
export const CSL_LIST = "Consolidated Screening List";

const REQUIRED_COLUMNS = ["source", "entity_number", "type", "programs", "name", "addresses", "alt_names"];

/** "Entity List (EL) - Bureau of Industry and Security" -> "CSL:EL". */
export function cslSourceList(source: string): string {
  const code = /\(([A-Z0-9][A-Z0-9-]*)\)/.exec(source)?.[1];
  return `CSL:${code ?? source.trim()}`;
}

function entityTypeOf(value: string, name: string): EntityType {
  const v = value.trim().toLowerCase();
  if (v === "entity" || v === "individual" || v === "vessel" || v === "aircraft") return v;
  return guessEntityType(name);
}

// ISN rows append "; and any successor, sub-unit, or subsidiary thereof" to the name.
function cleanName(name: string): string {
  return name.split(/;\s*and any successor/i)[0]?.trim() ?? "";
}

function cleanAlias(alias: string): string {
  return alias.replace(/^and\s+/i, "").trim();
}

/**
 * Parses the trade.gov Consolidated Screening List (consolidated.csv: header row, "; "-separated
 * multi-value cells). Each source list becomes sourceList "CSL:<code>". Rows of the same party
 * (same source and entity number, or same source, name and start date when there is no number,
 * as on the DPL where each address is its own row) are merged.
 */
export function parseCsl(bytes: ListBytes): ParsedList {
  const label = "CSL";
  const text = decodeListText(bytes, label);
  if (text.trim() === "") throw new Error(`${label}: line 1: file is empty`);
  // Checked first: another list's file should be named as such, not fail on its quoting.
  const header = headerFields(text, ",", label);
  for (const column of REQUIRED_COLUMNS) {
    if (!header.includes(column)) throw new Error(`${label}: line 1: missing column "${column}" in header`);
  }
  const rows = parseDelimited(text, ",", label);
  const col = (name: string): number => header.indexOf(name);
  const at = (fields: string[], name: string): string => {
    const i = col(name);
    return i < 0 ? "" : (fields[i] ?? "").trim();
  };

  const merged = new Map<string, ListEntry>();
  let latest: string | undefined;
  for (const row of rows.slice(1)) {
    if (row.fields.length !== header.length) {
      throw new Error(
        `${label}: line ${row.line}: expected ${header.length} columns, found ${row.fields.length}`,
      );
    }
    const f = row.fields;
    const source = at(f, "source");
    if (source === "") throw new Error(`${label}: line ${row.line}: empty source`);
    const name = cleanName(at(f, "name"));
    if (name === "") throw new Error(`${label}: line ${row.line}: empty name`);
    const sourceList = cslSourceList(source);
    const entityNumber = at(f, "entity_number");
    const startDate = toIsoDate(at(f, "start_date"));
    if (startDate !== undefined && (latest === undefined || startDate > latest)) latest = startDate;
    const addresses = splitMulti(at(f, "addresses")).map(cleanAlias);
    const countries: string[] = [];
    for (const address of addresses) {
      const last = address.split(",").pop()?.trim() ?? "";
      if (/^[A-Z]{2}$/.test(last)) countries.push(last);
    }
    countries.push(
      ...splitMulti(at(f, "citizenships"), /[;,]\s*/),
      ...splitMulti(at(f, "nationalities"), /[;,]\s*/),
    );
    const key = `${sourceList}|${entityNumber !== "" ? entityNumber : `${name.toUpperCase()}|${startDate ?? ""}`}`;
    const existing = merged.get(key);
    if (existing !== undefined) {
      existing.aliases = unique([...existing.aliases, ...splitMulti(at(f, "alt_names")).map(cleanAlias)]);
      existing.addresses = unique([...existing.addresses, ...addresses]);
      existing.countries = unique([...existing.countries, ...countries]);
      continue;
    }
    const remarks = [at(f, "title"), at(f, "remarks"), at(f, "federal_register_notice")].filter(
      (r) => r !== "",
    );
    const id = at(f, "_id");
    merged.set(key, {
      sourceList,
      sourceId: entityNumber || id || sha256Hex(new TextEncoder().encode(key)).slice(0, 16),
      entityType: entityTypeOf(at(f, "type"), name),
      name,
      aliases: unique(splitMulti(at(f, "alt_names")).map(cleanAlias)).filter((a) => a !== "" && a !== name),
      programs: unique(splitMulti(at(f, "programs"))),
      addresses: unique(addresses),
      countries: unique(countries),
      remarks: remarks.length > 0 ? remarks.join("; ") : undefined,
      publishedAt: startDate,
    });
  }
  return {
    list: CSL_LIST,
    entries: [...merged.values()],
    rowCount: rows.length - 1,
    checksum: sha256Hex(bytes),
    publishedAt: latest,
    warnings: [],
  };
}
