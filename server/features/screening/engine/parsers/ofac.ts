import type { EntityType, ListEntry, ParsedList } from "../types";
import {
  type DelimitedRow,
  decodeListText,
  type ListBytes,
  parseDelimited,
  sha256Hex,
  splitMulti,
  toIsoDate,
  unique,
} from "./text";

/** sourceList of SDN entries. */
export const OFAC_SDN_LIST = "OFAC SDN";

export interface OfacParseOptions {
  /** Publication date to stamp on entries when the file does not carry one (the raw CSVs do not). */
  publishedAt?: string;
}

const SDN_RAW_COLUMNS = 12;
const ALT_RAW_COLUMNS = 5;
const ADD_RAW_COLUMNS = 6;
const SDN_CSV_HEADER = ["uid", "name", "type", "programs", "alternate_names"];

/** OFAC writes "-0-" (sometimes followed by a space) for an empty field. */
function cell(value: string | undefined): string {
  const v = (value ?? "").trim();
  return v === "-0-" ? "" : v;
}

function entityTypeOf(value: string, label: string, line: number): EntityType {
  const v = value.trim().toLowerCase();
  if (v === "" || v === "-0-" || v === "entity") return "entity";
  if (v === "individual" || v === "vessel" || v === "aircraft") return v;
  throw new Error(`${label}: line ${line}: unknown SDN type "${value}"`);
}

function requireColumns(row: DelimitedRow, expected: number, label: string): void {
  if (row.fields.length !== expected) {
    throw new Error(`${label}: line ${row.line}: expected ${expected} columns, found ${row.fields.length}`);
  }
}

function requireEntNum(value: string, label: string, line: number): string {
  const v = value.trim();
  if (!/^\d+$/.test(v))
    throw new Error(`${label}: line ${line}: ent_num "${v.slice(0, 40)}" is not a number`);
  return v;
}

/** Splits the raw Program column ("SDGT] [IFSR") or a "; "-separated programs cell. */
function splitPrograms(value: string): string[] {
  return unique(splitMulti(value.replace(/^\[|\]$/g, ""), /\]\s*\[|;\s*/));
}

const COUNTRY_REMARK_RE = /\b(?:nationality|citizen)\s+([A-Z][A-Za-z .,'()-]*?)\s*(?:;|\.\s*$|$)/g;
const AKA_REMARK_RE = /\b[afn]\.k\.a\.,?\s+'(.+?)'(?=\s*[;.,]|\s*$)/g;

function countriesFromRemarks(remarks: string): string[] {
  return [...remarks.matchAll(COUNTRY_REMARK_RE)].map((m) => (m[1] ?? "").trim()).filter((c) => c !== "");
}

function aliasesFromRemarks(remarks: string): string[] {
  return [...remarks.matchAll(AKA_REMARK_RE)].map((m) => (m[1] ?? "").trim()).filter((a) => a !== "");
}

interface Draft {
  entry: ListEntry;
}

function parseRawSdn(text: string, label: string, publishedAt: string | undefined): Map<string, Draft> {
  const rows = parseDelimited(text, ",", label);
  if (rows.length === 0) throw new Error(`${label}: line 1: file is empty`);
  const drafts = new Map<string, Draft>();
  for (const row of rows) {
    requireColumns(row, SDN_RAW_COLUMNS, label);
    const f = row.fields;
    const id = requireEntNum(f[0] ?? "", label, row.line);
    const name = cell(f[1]);
    if (name === "") throw new Error(`${label}: line ${row.line}: empty SDN_Name`);
    const remarks = cell(f[11]);
    const title = cell(f[4]);
    const flag = cell(f[9]);
    const countries = countriesFromRemarks(remarks);
    if (flag !== "") countries.push(flag);
    drafts.set(id, {
      entry: {
        sourceList: OFAC_SDN_LIST,
        sourceId: id,
        entityType: entityTypeOf(f[2] ?? "", label, row.line),
        name,
        aliases: aliasesFromRemarks(remarks),
        programs: splitPrograms(cell(f[3])),
        addresses: [],
        countries: unique(countries),
        remarks:
          [title !== "" ? `Title: ${title}` : "", remarks].filter((r) => r !== "").join(" ") || undefined,
        publishedAt,
      },
    });
  }
  return drafts;
}

function parseSdnCsv(text: string, label: string, publishedAt: string | undefined): Map<string, Draft> {
  const rows = parseDelimited(text, ",", label);
  const header = rows[0]?.fields.map((h) => h.trim().toLowerCase()) ?? [];
  if (SDN_CSV_HEADER.some((column, i) => header[i] !== column)) {
    throw new Error(`${label}: line 1: expected header ${SDN_CSV_HEADER.join(",")}`);
  }
  const drafts = new Map<string, Draft>();
  for (const row of rows.slice(1)) {
    requireColumns(row, header.length, label);
    const f = row.fields;
    const id = requireEntNum(f[0] ?? "", label, row.line);
    const name = (f[1] ?? "").trim();
    if (name === "") throw new Error(`${label}: line ${row.line}: empty name`);
    drafts.set(id, {
      entry: {
        sourceList: OFAC_SDN_LIST,
        sourceId: id,
        entityType: entityTypeOf(f[2] ?? "", label, row.line),
        name,
        aliases: splitMulti(f[4] ?? ""),
        programs: splitPrograms(f[3] ?? ""),
        addresses: [],
        countries: [],
        publishedAt,
      },
    });
  }
  return drafts;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringArray(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.every((v) => typeof v === "string")
    ? value.map((v: string) => v.trim()).filter((v) => v)
    : undefined;
}

function parseSdnJson(
  text: string,
  label: string,
  fallbackDate: string | undefined,
): { drafts: Map<string, Draft>; publishedAt?: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new Error(`${label}: line 1: invalid JSON (${(error as Error).message})`);
  }
  if (!isRecord(doc) || !Array.isArray(doc.entries)) {
    throw new Error(`${label}: line 1: expected an object with an "entries" array`);
  }
  const published = typeof doc.published === "string" ? toIsoDate(doc.published) : undefined;
  const publishedAt = published ?? fallbackDate;
  const drafts = new Map<string, Draft>();
  doc.entries.forEach((raw: unknown, index: number) => {
    // JSON has no useful line numbers; the entry position is the closest equivalent.
    const where = `${label}: line ${index + 1} (entry ${index + 1})`;
    if (!isRecord(raw)) throw new Error(`${where}: entry is not an object`);
    const uid = typeof raw.uid === "number" ? String(raw.uid) : raw.uid;
    if (typeof uid !== "string" || !/^\d+$/.test(uid)) throw new Error(`${where}: missing numeric uid`);
    if (typeof raw.name !== "string" || raw.name.trim() === "") throw new Error(`${where}: missing name`);
    const programs = stringArray(raw.programs ?? []);
    const aliases = stringArray(raw.alternateNames ?? []);
    if (programs === undefined || aliases === undefined) {
      throw new Error(`${where}: programs and alternateNames must be string arrays`);
    }
    drafts.set(uid, {
      entry: {
        sourceList: OFAC_SDN_LIST,
        sourceId: uid,
        entityType: entityTypeOf(typeof raw.type === "string" ? raw.type : "", label, index + 1),
        name: raw.name.trim(),
        aliases,
        programs,
        addresses: [],
        countries: [],
        publishedAt,
      },
    });
  });
  return { drafts, publishedAt };
}

/**
 * Parses the OFAC SDN list. `sdn` may be the raw SDN.CSV (no header, "-0-" for empty, CP1252),
 * the "uid,name,type,programs,alternate_names" CSV or the JSON mirror with `published` and
 * `entries`. Raw ALT.CSV (aliases) and ADD.CSV (addresses) are joined on ent_num when given.
 * Throws Error("<file>: line N: ...") on a malformed file.
 */
export function parseOfacSdn(
  sdn: ListBytes,
  alt?: ListBytes,
  add?: ListBytes,
  options: OfacParseOptions = {},
): ParsedList {
  const sdnText = decodeListText(sdn, "SDN");
  const trimmed = sdnText.trimStart();
  let drafts: Map<string, Draft>;
  let publishedAt = options.publishedAt;
  let rowCount: number;
  if (trimmed.startsWith("{")) {
    const parsed = parseSdnJson(trimmed, "SDN", options.publishedAt);
    drafts = parsed.drafts;
    publishedAt = parsed.publishedAt;
    rowCount = drafts.size;
  } else if (/^"?uid"?,/i.test(trimmed)) {
    drafts = parseSdnCsv(sdnText, "SDN", publishedAt);
    rowCount = drafts.size;
  } else {
    drafts = parseRawSdn(sdnText, "SDN", publishedAt);
    rowCount = drafts.size;
  }
  const warnings: string[] = [];

  if (alt !== undefined) {
    const rows = parseDelimited(decodeListText(alt, "ALT"), ",", "ALT");
    let orphans = 0;
    for (const row of rows) {
      requireColumns(row, ALT_RAW_COLUMNS, "ALT");
      const id = requireEntNum(row.fields[0] ?? "", "ALT", row.line);
      const name = cell(row.fields[3]);
      if (name === "") throw new Error(`ALT: line ${row.line}: empty alt_name`);
      const draft = drafts.get(id);
      if (draft === undefined) orphans++;
      else draft.entry.aliases.push(name);
    }
    if (orphans > 0) warnings.push(`ALT: ${orphans} aliases refer to entries not in this SDN file`);
  }

  if (add !== undefined) {
    const rows = parseDelimited(decodeListText(add, "ADD"), ",", "ADD");
    let orphans = 0;
    for (const row of rows) {
      requireColumns(row, ADD_RAW_COLUMNS, "ADD");
      const id = requireEntNum(row.fields[0] ?? "", "ADD", row.line);
      const draft = drafts.get(id);
      if (draft === undefined) {
        orphans++;
        continue;
      }
      const country = cell(row.fields[4]);
      const address = [cell(row.fields[2]), cell(row.fields[3]), country].filter((p) => p !== "").join(", ");
      if (address !== "") draft.entry.addresses.push(address);
      if (country !== "") draft.entry.countries.push(country);
    }
    if (orphans > 0) warnings.push(`ADD: ${orphans} addresses refer to entries not in this SDN file`);
  }

  const entries = [...drafts.values()].map(({ entry }) => ({
    ...entry,
    aliases: unique(entry.aliases).filter((a) => a !== entry.name),
    addresses: unique(entry.addresses),
    countries: unique(entry.countries),
  }));
  return {
    list: OFAC_SDN_LIST,
    entries,
    rowCount,
    checksum: sha256Hex(sdn, alt, add),
    publishedAt,
    warnings,
  };
}
