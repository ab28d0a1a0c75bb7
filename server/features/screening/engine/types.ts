/** Kind of listed party, as the source lists classify it. */
export type EntityType = "entity" | "individual" | "vessel" | "aircraft";

/** One party on a restricted-party list, independent of the file format it came from. */
export interface ListEntry {
  /** "OFAC SDN", "BIS DPL", or "CSL:<code>" (e.g. "CSL:EL", "CSL:SDN") for consolidated-list rows. */
  sourceList: string;
  /** Identifier within the source list (OFAC ent_num, CSL entity_number or _id, or a derived stable key). */
  sourceId: string;
  entityType: EntityType;
  name: string;
  aliases: string[];
  programs: string[];
  /** One string per address, its lines joined with ", ". */
  addresses: string[];
  /** ISO-3166 alpha-2 codes or country names, as the source gave them. */
  countries: string[];
  remarks?: string;
  /** ISO date (YYYY-MM-DD) the list or the entry was published, when the source says. */
  publishedAt?: string;
}

/** Result of parsing one list file. */
export interface ParsedList {
  /** Human-readable list name ("OFAC SDN", "BIS DPL", "Consolidated Screening List"). */
  list: string;
  entries: ListEntry[];
  /** Data rows read from the file(s), before rows were merged into entries. */
  rowCount: number;
  /** sha256 hex of the raw input bytes (all files concatenated in argument order). */
  checksum: string;
  /** Publication date of the whole file when the format carries one. */
  publishedAt?: string;
  /** Non-fatal oddities worth showing to whoever imports the file (e.g. aliases for unknown entries). */
  warnings: string[];
}

/** A name reduced to comparable tokens. */
export interface NormalizedName {
  /** Core tokens in original order (legal forms and stop words removed). */
  tokens: NameToken[];
  /** Legal forms that were set aside, in canonical spelling (e.g. "ltd", "llc", "jsc"). */
  legalForms: string[];
}

/** How much a token says about identity. */
export type TokenKind = "core" | "generic" | "industry" | "country" | "particle" | "patronymic" | "number";

export interface NameToken {
  /** Lowercase ASCII form after transliteration and abbreviation expansion. */
  text: string;
  /** Comparison key: `text` with common Latin transliteration variants folded (kh→h, ks→x, ...). */
  key: string;
  kind: TokenKind;
  weight: number;
  /** The word as written when it was an abbreviation expanded into `text` ("intl" for "international"). */
  source?: string;
}

/** What the caller screens: a counterparty name with optional supporting evidence. */
export interface ScreenQuery {
  name: string;
  address?: string;
  /** ISO-2 code or English country name. */
  country?: string;
}

export interface ScreenOptions {
  /** Score at or above which a hit fails the screening. Default 0.85. */
  threshold?: number;
  /** Maximum number of matches returned. Default 5. */
  top?: number;
  /** Lowest score reported in `matches` (near misses shown for review). Default threshold - 0.1. */
  minScore?: number;
}

export interface ScreenMatch {
  entry: ListEntry;
  /** The entry's name or alias that produced the score. */
  matchedName: string;
  score: number;
}

export interface ScreenResult {
  status: "passed" | "failed";
  /** More than one distinct entry reached the threshold. */
  multiple: boolean;
  /** Best score over all entries, 0 when nothing came close. */
  bestScore: number;
  /** Sorted by score, highest first. */
  matches: ScreenMatch[];
}
