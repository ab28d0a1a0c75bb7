// The EAR tables (Commerce Country Chart, Country Groups, the CCL's licence data) as the
// determination reads them: parsed from the CSV files shipped in db/reference/ear (or loaded by a
// workspace admin), stored per edition, and read back into memory once per edition.
import { and, desc, eq, isNull, or } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import eccnsCsv from "../../../db/reference/ear/ccl-eccns.csv" with { type: "text" };
import chartCsv from "../../../db/reference/ear/country-chart.csv" with { type: "text" };
import footnotesCsv from "../../../db/reference/ear/country-chart-footnotes.csv" with { type: "text" };
import groupsCsv from "../../../db/reference/ear/country-groups.csv" with { type: "text" };
import {
  ear_chart_footnotes,
  ear_country_chart,
  ear_country_groups,
  ear_eccns,
  ear_editions,
} from "../../../db/schema";
import { CsvParser } from "../../lib/csv";
import { AppError } from "../../lib/errors";

/** The edition of the files in db/reference/ear (their SOURCE.md: eCFR title 15 issue of this date). */
export const SHIPPED_EDITION_DATE = "2026-07-23";
export const SHIPPED_SOURCE =
  "eCFR title 15, Supp. No. 1 to parts 738, 740 and 774 (see db/reference/ear/SOURCE.md)";

export const CHART_COLUMNS = [
  "CB1",
  "CB2",
  "CB3",
  "NP1",
  "NP2",
  "NS1",
  "NS2",
  "MT1",
  "RS1",
  "RS2",
  "FC1",
  "CC1",
  "CC2",
  "CC3",
  "AT1",
  "AT2",
] as const;
export const COUNTRY_GROUPS = [
  "A:1",
  "A:2",
  "A:3",
  "A:4",
  "A:5",
  "A:6",
  "B",
  "D:1",
  "D:2",
  "D:3",
  "D:4",
  "D:5",
  "E:1",
  "E:2",
] as const;
const ECCN_COLUMNS = [
  "eccn",
  "heading_short",
  "reason_for_control",
  "chart_columns",
  "non_chart_requirements",
  "partial_scope_columns",
  "lvs",
  "lvs_value",
  "gbs",
  "gbs_available",
  "other_list_based_exceptions",
  "license_requirements_raw",
  "notes",
] as const;

export type TChartRow = {
  iso2: string;
  country: string;
  columns: Set<string>;
  footnotes: string[];
  notes: string;
};
export type TEccnRow = Record<(typeof ECCN_COLUMNS)[number], string>;

/** One edition in memory: what the determination reads. */
export type TEarTables = {
  editionId: number;
  editionDate: string;
  isShipped: boolean;
  chart: Map<string, TChartRow>;
  footnotes: Map<string, string>;
  groups: Map<string, { iso2: string; country: string; groups: Set<string> }>;
  eccns: Map<string, TEccnRow>;
};

/** The four files of an edition, as CSV text. */
export type TEarFiles = {
  country_chart: string;
  country_groups: string;
  ccl_eccns: string;
  chart_footnotes: string;
};

/** Parses CSV text into objects keyed by the header row; a missing column is a 422 naming the file. */
export function parseCsvObjects(text: string, file: string, required: readonly string[]) {
  const records: string[][] = [];
  const parser = new CsvParser((cells) => records.push(cells));
  parser.push(text);
  parser.end();
  const [header, ...rows] = records;
  const missing = required.filter((c) => !header?.includes(c));
  if (!header || missing.length) {
    throw new AppError("VALIDATION", `${file}: the header lacks the column(s) ${missing.join(", ")}.`, {
      errors: { [`files.${file}`]: [`Missing column(s): ${missing.join(", ")}.`] },
    });
  }
  return rows
    .filter((cells) => cells.some((c) => c.trim() !== ""))
    .map((cells) => Object.fromEntries(header.map((h, i) => [h, (cells[i] ?? "").trim()])));
}

/** The rows to store for an edition, checked: 422 when a file is empty or malformed. */
export function parseEarFiles(files: TEarFiles) {
  const chart = parseCsvObjects(files.country_chart, "country_chart", [
    "country",
    "iso2",
    ...CHART_COLUMNS,
    "footnotes",
    "notes",
  ]).map((r) => ({
    iso2: r.iso2.toUpperCase(),
    country: r.country,
    columns: CHART_COLUMNS.filter((c) => r[c].toUpperCase() === "X").join(" "),
    footnotes: r.footnotes,
    notes: r.notes,
  }));
  const groups = parseCsvObjects(files.country_groups, "country_groups", [
    "country",
    "iso2",
    ...COUNTRY_GROUPS,
    "notes",
  ]).map((r) => ({
    iso2: r.iso2.toUpperCase(),
    country: r.country,
    groups: COUNTRY_GROUPS.filter((g) => r[g].toUpperCase() === "X").join(" "),
    notes: r.notes,
  }));
  const eccns = parseCsvObjects(files.ccl_eccns, "ccl_eccns", ECCN_COLUMNS).map(
    (r) =>
      Object.fromEntries(ECCN_COLUMNS.map((c) => [c, c === "eccn" ? r[c].toUpperCase() : r[c]])) as TEccnRow,
  );
  const footnotes = parseCsvObjects(files.chart_footnotes, "chart_footnotes", ["footnote", "text"]).map(
    (r) => ({
      footnote: r.footnote,
      text: r.text,
    }),
  );
  const problems: Record<string, string[]> = {};
  const check = (file: string, ok: boolean, message: string) => {
    if (!ok) problems[`files.${file}`] = [...(problems[`files.${file}`] ?? []), message];
  };
  check("country_chart", chart.length >= 100, "Expected a row per destination (at least 100 rows).");
  check("country_groups", groups.length >= 100, "Expected a row per country (at least 100 rows).");
  check("ccl_eccns", eccns.length >= 100, "Expected a row per ECCN (at least 100 rows).");
  check(
    "country_chart",
    chart.every((r) => /^[A-Z]{2}$/.test(r.iso2)),
    "Every row needs a two-letter iso2 code.",
  );
  check(
    "country_groups",
    groups.every((r) => /^[A-Z]{2}$/.test(r.iso2)),
    "Every row needs a two-letter iso2 code.",
  );
  check(
    "ccl_eccns",
    eccns.every((r) => /^\d[A-E]\d{3}$/.test(r.eccn)),
    "Every ECCN must look like 3A001.",
  );
  const unique = (values: string[]) => new Set(values).size === values.length;
  check("country_chart", unique(chart.map((r) => r.iso2)), "An iso2 code appears twice.");
  check("country_groups", unique(groups.map((r) => r.iso2)), "An iso2 code appears twice.");
  check("ccl_eccns", unique(eccns.map((r) => r.eccn)), "An ECCN appears twice.");
  if (Object.keys(problems).length) {
    throw new AppError("VALIDATION", "The EAR files do not have the expected shape: nothing was loaded.", {
      errors: problems,
    });
  }
  return { chart, groups, eccns, footnotes };
}

/** The shipped files, as text. */
export const SHIPPED_FILES: TEarFiles = {
  country_chart: chartCsv,
  country_groups: groupsCsv,
  ccl_eccns: eccnsCsv,
  chart_footnotes: footnotesCsv,
};

/** Stores an edition (all rows or nothing) and returns its id. */
export async function storeEdition(
  db: TDb,
  files: TEarFiles,
  meta: {
    workspaceId: number | null;
    editionDate: string;
    source: string;
    userId?: number | null;
    userEmail?: string;
  },
): Promise<number> {
  const parsed = parseEarFiles(files);
  return db.transaction(async (tx) => {
    const [edition] = await tx
      .insert(ear_editions)
      .values({
        workspace_id: meta.workspaceId,
        edition_date: meta.editionDate,
        source: meta.source,
        loaded_by_user_id: meta.userId ?? null,
        loaded_by_email: meta.userEmail ?? "",
        counts: {
          chart: parsed.chart.length,
          groups: parsed.groups.length,
          eccns: parsed.eccns.length,
          footnotes: parsed.footnotes.length,
        },
      })
      .returning({ id: ear_editions.id });
    const insert = async <T extends Record<string, unknown>>(table: never, rows: T[]) => {
      for (let i = 0; i < rows.length; i += 50) {
        await tx
          .insert(table)
          .values(rows.slice(i, i + 50).map((r) => ({ ...r, edition_id: edition.id })) as never);
      }
    };
    await insert(ear_country_chart as never, parsed.chart);
    await insert(ear_country_groups as never, parsed.groups);
    await insert(ear_eccns as never, parsed.eccns);
    await insert(ear_chart_footnotes as never, parsed.footnotes);
    return edition.id;
  });
}

/** Loads the shipped edition once (at start): harmless to call again. */
export async function seedShippedEdition(db: TDb): Promise<void> {
  const [existing] = await db
    .select({ id: ear_editions.id })
    .from(ear_editions)
    .where(and(isNull(ear_editions.workspace_id), eq(ear_editions.edition_date, SHIPPED_EDITION_DATE)));
  if (existing) return;
  await storeEdition(db, SHIPPED_FILES, {
    workspaceId: null,
    editionDate: SHIPPED_EDITION_DATE,
    source: SHIPPED_SOURCE,
  });
}

/** The edition in force for a workspace: its own newest, else the newest shipped one. */
export async function currentEditionRow(db: TDb, workspaceId: number) {
  const rows = await db
    .select()
    .from(ear_editions)
    .where(or(isNull(ear_editions.workspace_id), eq(ear_editions.workspace_id, workspaceId)))
    .orderBy(desc(ear_editions.edition_date), desc(ear_editions.id))
    .limit(1);
  return rows[0] ?? null;
}

/** Builds the in-memory tables from stored rows (or parsed files, for tests). */
export function buildTables(
  meta: { editionId: number; editionDate: string; isShipped: boolean },
  rows: ReturnType<typeof parseEarFiles>,
): TEarTables {
  return {
    ...meta,
    chart: new Map(
      rows.chart.map((r) => [
        r.iso2,
        {
          iso2: r.iso2,
          country: r.country,
          columns: new Set(r.columns.split(" ").filter(Boolean)),
          footnotes: r.footnotes
            .split(";")
            .map((f) => f.trim())
            .filter(Boolean),
          notes: r.notes,
        },
      ]),
    ),
    footnotes: new Map(rows.footnotes.map((r) => [r.footnote, r.text])),
    groups: new Map(
      rows.groups.map((r) => [
        r.iso2,
        { iso2: r.iso2, country: r.country, groups: new Set(r.groups.split(" ").filter(Boolean)) },
      ]),
    ),
    eccns: new Map(rows.eccns.map((r) => [r.eccn, r])),
  };
}

// Editions never change once stored: cache each by database and id (a new edition gets a new id).
const caches = new WeakMap<object, Map<number, Promise<TEarTables>>>();

/** The tables in force for a workspace, read once per edition. */
export async function earTablesFor(db: TDb, workspaceId: number): Promise<TEarTables> {
  let edition = await currentEditionRow(db, workspaceId);
  if (!edition) {
    await seedShippedEdition(db);
    edition = await currentEditionRow(db, workspaceId);
  }
  if (!edition) throw new AppError("UNAVAILABLE", "The EAR tables are not loaded.");
  const id = edition.id;
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let tables = cache.get(id);
  if (!tables) {
    const meta = {
      editionId: id,
      editionDate: edition.edition_date,
      isShipped: edition.workspace_id === null,
    };
    tables = Promise.all([
      db.select().from(ear_country_chart).where(eq(ear_country_chart.edition_id, id)),
      db.select().from(ear_country_groups).where(eq(ear_country_groups.edition_id, id)),
      db.select().from(ear_eccns).where(eq(ear_eccns.edition_id, id)),
      db.select().from(ear_chart_footnotes).where(eq(ear_chart_footnotes.edition_id, id)),
    ]).then(([chart, groups, eccns, footnotes]) => buildTables(meta, { chart, groups, eccns, footnotes }));
    tables.catch(() => cache?.delete(id));
    cache.set(id, tables);
  }
  return tables;
}
