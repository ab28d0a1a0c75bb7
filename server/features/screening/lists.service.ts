import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { and, count, desc, eq, inArray, max, min, sql } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { screening_entries, screening_lists } from "../../../db/schema";
import { AppError } from "../../lib/errors";
import {
  buildIndex,
  type ListEntry,
  type ParsedList,
  parseCsl,
  parseDpl,
  parseOfacSdn,
  type ScreeningIndex,
} from "./engine";
import { buildIndexInChild } from "./index-build-child";
import {
  buildIndexInWorker,
  indexBuildCommand,
  indexBuildsInWorker,
  indexCacheDir,
  loadCachedIndex,
  loadOrBuildIndex,
} from "./index-cache";

/** The list sources a deployment holds; importing a source replaces all its entries at once. */
export const LIST_SOURCES = { "ofac-sdn": "OFAC SDN", dpl: "BIS DPL", csl: "CSL" } as const;
export type TListFormat = keyof typeof LIST_SOURCES;

/** A loaded list version, as screenings record it and the UI shows it. */
export type TListVersion = {
  source: string;
  version_date: string;
  row_count: number;
  checksum: string;
  imported_at: string;
};

export type TListFile = { name: string; bytes: Uint8Array };

/** Guesses the format from the file name, then the content (CSL has a header with source/alt_names). */
export function detectFormat(file: TListFile): TListFormat {
  const name = file.name.toLowerCase();
  if (/dpl|denied/.test(name)) return "dpl";
  if (/csl|consolidated/.test(name)) return "csl";
  if (/sdn|ofac/.test(name)) return "ofac-sdn";
  const head = new TextDecoder().decode(file.bytes.subarray(0, 2000)).toLowerCase();
  if (head.includes("alt_names") && head.includes("source")) return "csl";
  if (head.includes("street_address") || head.includes("effective_date")) return "dpl";
  return "ofac-sdn";
}

/**
 * Parses the files of one list. OFAC SDN takes the SDN file plus optional ALT (aliases) and ADD
 * (addresses) files, recognised by name. Throws with the line at fault on a malformed file, before
 * anything is written.
 */
export function parseListFiles(format: TListFormat, files: TListFile[]): ParsedList {
  if (!files.length) throw new Error("No file given");
  if (format === "dpl") return parseDpl(files[0].bytes);
  if (format === "csl") {
    const parsed = files.map((f) => parseCsl(f.bytes));
    if (parsed.length === 1) return parsed[0];
    // Several CSL files (the bundled samples) become one version; later files win on the same entry.
    const byKey = new Map<string, ListEntry>();
    for (const p of parsed) for (const e of p.entries) byKey.set(`${e.sourceList}\u0000${e.sourceId}`, e);
    return {
      ...parsed[parsed.length - 1],
      entries: [...byKey.values()],
      rowCount: parsed.reduce((n, p) => n + p.rowCount, 0),
      checksum: parsed.map((p) => p.checksum).join("+"),
      warnings: parsed.flatMap((p) => p.warnings),
    };
  }
  const isAlt = (f: TListFile) => /alt/i.test(f.name);
  const isAdd = (f: TListFile) => /add/i.test(f.name);
  const main = files.find((f) => !isAlt(f) && !isAdd(f));
  if (!main)
    throw new Error("The OFAC import needs the SDN file (sdn.csv or the SDN JSON), not only ALT/ADD");
  return parseOfacSdn(main.bytes, files.find(isAlt)?.bytes, files.find(isAdd)?.bytes, {
    publishedAt: /(\d{4}-\d{2}-\d{2})/.exec(main.name)?.[1],
  });
}

/** What a new version of a list changed, by entry (list + id): what re-screened outcomes are explained by. */
export type TListDelta = {
  added: Map<string, string>;
  removed: Map<string, string>;
  aliases: Map<string, { name: string; added: string[]; removed: string[] }>;
};

export const entryKeyOf = (sourceList: string, sourceId: string) => `${sourceList}\u0000${sourceId}`;

/** Entries added, removed, and entries whose names or aliases changed, between two versions. */
export function diffEntries(
  before: { sourceList: string; sourceId: string; name: string; aliases: string[] }[],
  after: { sourceList: string; sourceId: string; name: string; aliases: string[] }[],
): TListDelta {
  const delta: TListDelta = { added: new Map(), removed: new Map(), aliases: new Map() };
  const old = new Map(before.map((e) => [entryKeyOf(e.sourceList, e.sourceId), e]));
  const seen = new Set<string>();
  for (const e of after) {
    const key = entryKeyOf(e.sourceList, e.sourceId);
    seen.add(key);
    const was = old.get(key);
    if (!was) {
      delta.added.set(key, e.name);
      continue;
    }
    const names = new Set([was.name, ...was.aliases]);
    const now = new Set([e.name, ...e.aliases]);
    const added = [...now].filter((n) => !names.has(n));
    const removed = [...names].filter((n) => !now.has(n));
    if (added.length || removed.length) delta.aliases.set(key, { name: e.name, added, removed });
  }
  for (const [key, e] of old) if (!seen.has(key)) delta.removed.set(key, e.name);
  return delta;
}

type TMatchLike = {
  source_list: string;
  source_id: string;
  name: string;
  matched_name: string;
  score: number;
};

/**
 * Explains a changed outcome after a list re-import from the matches before and after and what the
 * new version changed: a new entry, a removed entry or a changed alias (else the list data changed).
 */
export function explainChange(delta: TListDelta) {
  return (before: TMatchLike[], after: TMatchLike[], threshold: number): string | null => {
    const reasons: string[] = [];
    const describeChange = (m: TMatchLike, isNow: boolean) => {
      const key = entryKeyOf(m.source_list, m.source_id);
      const where = `${m.source_list} ${m.source_id}`;
      if (isNow && delta.added.has(key)) return `new entry: ${m.name} (${where})`;
      if (!isNow && delta.removed.has(key)) return `removed entry: ${m.name} (${where})`;
      const alias = delta.aliases.get(key);
      if (alias) {
        const change = isNow
          ? alias.added.length
            ? `now also "${alias.added.join('", "')}"`
            : "names changed"
          : alias.removed.length
            ? `no longer "${alias.removed.join('", "')}"`
            : "names changed";
        return `changed alias: ${alias.name} (${where}) ${change}`;
      }
      return null;
    };
    for (const m of after.filter((x) => x.score >= threshold)) {
      const reason = describeChange(m, true);
      if (reason) reasons.push(reason);
    }
    for (const m of before.filter((x) => x.score >= threshold)) {
      const reason = describeChange(m, false);
      if (reason && !reasons.includes(reason)) reasons.push(reason);
    }
    if (!reasons.length) {
      const top = after.find((x) => x.score >= threshold) ?? before.find((x) => x.score >= threshold);
      return top
        ? `list data changed for ${top.name} (${top.source_list} ${top.source_id})`
        : "list data changed";
    }
    return reasons.join("; ");
  };
}

/**
 * Stores a parsed list as the source's active version, in one transaction: the new entries go in,
 * the old version is kept as history (without its entries) and marked inactive. A failure leaves
 * the previous version loaded.
 */
export async function storeList(db: TDb, format: TListFormat, parsed: ParsedList, fileName: string) {
  const source = LIST_SOURCES[format];
  if (!parsed.entries.length) throw new Error(`${fileName}: the file holds no list entries`);
  const versionDate = parsed.publishedAt ?? new Date().toISOString().slice(0, 10);
  return db.transaction(async (tx) => {
    const old = await tx
      .select({ id: screening_lists.id })
      .from(screening_lists)
      .where(eq(screening_lists.source, source));
    // What the new version changes, entry by entry, before the old entries go.
    const previous = old.length
      ? await tx
          .select({
            sourceList: screening_entries.source_list,
            sourceId: screening_entries.source_id,
            name: screening_entries.name,
            aliases: screening_entries.aliases,
          })
          .from(screening_entries)
          .innerJoin(screening_lists, eq(screening_lists.id, screening_entries.list_id))
          .where(and(eq(screening_lists.source, source), eq(screening_lists.is_active, true)))
      : [];
    const delta = diffEntries(previous, parsed.entries);
    if (old.length) {
      await tx.delete(screening_entries).where(
        inArray(
          screening_entries.list_id,
          old.map((o) => o.id),
        ),
      );
      await tx.update(screening_lists).set({ is_active: false }).where(eq(screening_lists.source, source));
    }
    const [list] = await tx
      .insert(screening_lists)
      .values({
        source,
        version_date: versionDate,
        row_count: parsed.rowCount,
        checksum: parsed.checksum,
        file_name: fileName,
        is_active: true,
      })
      .returning();
    const rows = parsed.entries.map((e) => ({
      list_id: list.id,
      source_list: e.sourceList,
      source_id: e.sourceId,
      entity_type: e.entityType,
      name: e.name,
      aliases: e.aliases,
      programs: e.programs,
      addresses: e.addresses,
      countries: e.countries,
      remarks: e.remarks ?? "",
    }));
    for (let i = 0; i < rows.length; i += 500)
      await tx.insert(screening_entries).values(rows.slice(i, i + 500));
    return {
      source,
      version_date: versionDate,
      row_count: parsed.rowCount,
      entries: rows.length,
      checksum: parsed.checksum,
      delta,
    };
  });
}

/** The active version of every source. */
export async function activeLists(db: TDb): Promise<TListVersion[]> {
  return db
    .select({
      source: screening_lists.source,
      version_date: screening_lists.version_date,
      row_count: screening_lists.row_count,
      checksum: screening_lists.checksum,
      imported_at: screening_lists.imported_at,
    })
    .from(screening_lists)
    .where(eq(screening_lists.is_active, true))
    .orderBy(screening_lists.source);
}

/** Every imported version, newest first (what `screening-lists status` shows). */
export async function listHistory(db: TDb) {
  return db.select().from(screening_lists).orderBy(desc(screening_lists.id));
}

/** Loads the bundled list files into an empty database (first start), newest file of each kind. */
export async function seedBundledLists(db: TDb, dir: string): Promise<boolean> {
  const [{ n }] = await db.select({ n: count() }).from(screening_lists);
  if (n > 0) return false;
  const files = readdirSync(dir);
  const pick = (re: RegExp) => files.filter((f) => re.test(f)).sort();
  const read = (name: string): TListFile => ({
    name,
    bytes: new Uint8Array(readFileSync(path.join(dir, name))),
  });
  const sdn = pick(/^ofac_sdn_\d.*\.json$/).pop() ?? pick(/^ofac_sdn_\d.*\.csv$/).pop();
  if (sdn) {
    const extras = [...pick(/^ofac_alt/).slice(-1), ...pick(/^ofac_add/).slice(-1)];
    const files = [read(sdn), ...extras.map(read)];
    // The JSON mirror already carries the aliases; the raw ALT file would only repeat them.
    const chosen = sdn.endsWith(".json") ? files.filter((f) => !/alt/i.test(f.name)) : files;
    await storeList(
      db,
      "ofac-sdn",
      parseListFiles("ofac-sdn", chosen),
      chosen.map((f) => f.name).join(" + "),
    );
  }
  const dpl = pick(/^bis_dpl/).pop();
  if (dpl) await storeList(db, "dpl", parseListFiles("dpl", [read(dpl)]), dpl);
  const csl = pick(/^csl.*\.csv$/);
  if (csl.length) await storeList(db, "csl", parseListFiles("csl", csl.map(read)), csl.join(" + "));
  return true;
}

/** Every entry of the active lists, as the engine wants them. */
export async function loadActiveEntries(db: TDb): Promise<ListEntry[]> {
  const rows = await db
    .select({ entry: screening_entries, publishedAt: screening_lists.version_date })
    .from(screening_entries)
    .innerJoin(
      screening_lists,
      and(eq(screening_lists.id, screening_entries.list_id), eq(screening_lists.is_active, true)),
    );
  return rows.map(({ entry, publishedAt }) => ({
    sourceList: entry.source_list,
    sourceId: entry.source_id,
    entityType: entry.entity_type as ListEntry["entityType"],
    name: entry.name,
    aliases: entry.aliases,
    programs: entry.programs,
    addresses: entry.addresses,
    countries: entry.countries,
    remarks: entry.remarks || undefined,
    publishedAt,
  }));
}

/** How entries are read from their rows (the code of loadActiveEntries): another reading, another key. */
const ENTRIES_LOADER = Bun.hash(loadActiveEntries.toString()).toString(16);

/** The last migration applied to the database (a migration may rewrite the entries' rows). */
async function lastMigration(db: TDb): Promise<string> {
  try {
    const [last] = await db.all<{ hash: string; created_at: number; n: number }>(
      sql`select hash, created_at, (select count(*) from __drizzle_migrations) as n from __drizzle_migrations order by created_at desc, id desc limit 1`,
    );
    return last ? `${last.n}:${last.created_at}:${last.hash}` : "none";
  } catch {
    return "unknown";
  }
}

/**
 * What identifies the active entries, for the index kept on disk: every active list version (an
 * import writes a new one, with its own time), the count and id range of their entries, how they
 * are read (the loader's code) and the last migration applied (which may have rewritten the rows).
 */
export async function activeEntriesKey(db: TDb, lists?: TListVersion[]): Promise<string> {
  const [versions, [stats], migration] = await Promise.all([
    lists ?? activeLists(db),
    db
      .select({ n: count(), low: min(screening_entries.id), high: max(screening_entries.id) })
      .from(screening_entries)
      .innerJoin(
        screening_lists,
        and(eq(screening_lists.id, screening_entries.list_id), eq(screening_lists.is_active, true)),
      ),
    lastMigration(db),
  ]);
  return `lists:${JSON.stringify(versions)}:${stats?.n ?? 0}:${stats?.low ?? ""}:${stats?.high ?? ""}:loader:${ENTRIES_LOADER}:migration:${migration}`;
}

/**
 * The index over the active entries (and whether it was loaded rather than built), from `cacheDir`
 * when stored there, else built from the database
 * and stored — only under the key its entries were read with: when a list import commits between
 * the key and the entries, the index is built but not stored (newer entries under an older key
 * would be served to every process until the next import).
 */
export async function loadOrBuildActiveIndex(
  db: TDb,
  cacheDir: string,
  lists?: TListVersion[],
  readEntries: (db: TDb) => Promise<ListEntry[]> = loadActiveEntries,
): Promise<{ index: ScreeningIndex; loaded: boolean }> {
  const sourceKey = await activeEntriesKey(db, lists);
  const stored = loadCachedIndex(cacheDir, sourceKey);
  if (stored) return { index: stored, loaded: true };
  const entries = await readEntries(db);
  if ((await activeEntriesKey(db)) !== sourceKey) return { index: buildIndex(entries), loaded: false };
  return loadOrBuildIndex(cacheDir, sourceKey, () => entries);
}

/**
 * The in-memory index over the active lists: built on first use (so processes that never screen
 * pay nothing), rebuilt after an import and swapped in whole, so a screening never sees half a list.
 */
export class ScreeningRegistry {
  private current?: Promise<{ index: ScreeningIndex; lists: TListVersion[] }>;
  private isBuilt = false;
  /** How long a request waits for the first build before it is refused (serve sets it; else no limit). */
  private requestWaitMs = Number.POSITIVE_INFINITY;

  /** Where the built index is kept between processes (default: setIndexCacheDir's; none: build each time). */
  private readonly cacheDir: string | undefined;
  /** Whether a worker thread builds the index when it is not on disk (else this thread does). */
  private readonly buildInWorker: boolean;
  /** How to start this program again to build the index in a child process (tried first), if at all. */
  private readonly buildCommand: readonly string[] | undefined;
  /** Where the last index came from, for the log. */
  lastLoad?: "disk" | "child process" | "worker" | "this thread";
  /** Why the last build process failed, if it did (the build then ran on a worker or this thread). */
  childFailure?: string;
  /** Why the last build worker failed, if it did (the build then ran on this thread). */
  workerFailure?: string;

  constructor(
    private readonly db: TDb,
    options: { cacheDir?: string; buildInWorker?: boolean; buildCommand?: readonly string[] } = {},
  ) {
    this.cacheDir = options.cacheDir ?? indexCacheDir();
    const isDefaultDir = options.cacheDir === undefined;
    this.buildInWorker = options.buildInWorker ?? (isDefaultDir && indexBuildsInWorker());
    this.buildCommand = options.buildCommand ?? (isDefaultDir ? indexBuildCommand() : undefined);
  }

  /** The index and the list versions it was built from. */
  get(): Promise<{ index: ScreeningIndex; lists: TListVersion[] }> {
    if (!this.current) {
      this.current = this.build();
      this.current.then(
        () => {
          this.isBuilt = true;
        },
        () => {},
      );
    }
    return this.current;
  }

  /** Where the first build is: not asked for yet, running, or done (GET /api/health shows it). */
  get state(): "idle" | "building" | "ready" {
    return this.isBuilt ? "ready" : this.current ? "building" : "idle";
  }

  /** Requests wait at most `ms` for the first build (the server starts listening before it). */
  limitRequestWait(ms: number): void {
    this.requestWaitMs = ms;
  }

  /**
   * Resolves once the index is ready for a request. While the first build is still running past the
   * request wait limit, refuses with 503 and Retry-After, so a screening never answers without lists.
   */
  async readyForRequest(): Promise<void> {
    if (this.isBuilt) return;
    const building = this.get().then(() => true);
    if (!Number.isFinite(this.requestWaitMs)) {
      await building;
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.requestWaitMs);
    });
    const isReady = await Promise.race([building, timeout]).finally(() => clearTimeout(timer));
    if (!isReady) throw screeningStarting();
  }

  /** Rebuilds from the database (after an import) and swaps the new index in when it is ready. */
  async rebuild(): Promise<void> {
    const next = this.build();
    await next;
    this.current = next;
  }

  private async build() {
    const lists = await activeLists(this.db);
    // The same list versions give the same index: databases holding identical lists (test copies of
    // one template, several registries in one process) share one instead of building it again.
    const key = `${this.cacheDir ?? ""}|${lists.map((l) => `${l.source}:${l.checksum}`).join("|")}`;
    let built = BUILT_INDEXES.get(key);
    if (!built) {
      built = this.loadIndex(lists);
      BUILT_INDEXES.clear();
      BUILT_INDEXES.set(key, built);
    }
    return { index: await built, lists };
  }

  /**
   * From disk when stored, else built in a child process and read from disk, else built on a worker
   * and read from disk, else built on this thread.
   */
  private async loadIndex(lists: TListVersion[]): Promise<ScreeningIndex> {
    const cacheDir = this.cacheDir;
    if (cacheDir === undefined) {
      this.lastLoad = "this thread";
      return buildIndex(await loadActiveEntries(this.db));
    }
    const sourceKey = await activeEntriesKey(this.db, lists);
    let index = loadCachedIndex(cacheDir, sourceKey);
    this.lastLoad = "disk";
    if (index) return index;
    if (this.buildCommand) {
      // Nothing of the build is in this process: the entries are read, and the index built, there.
      const built = await buildIndexInChild(this.buildCommand, cacheDir);
      index = loadCachedIndex(cacheDir, sourceKey);
      this.childFailure = index
        ? undefined
        : (built.error ?? "the index build process stored no index of these lists (imported meanwhile?)");
      if (index) {
        this.lastLoad = "child process";
        return index;
      }
    }
    // Stored only under the key its entries were read with: lists imported meanwhile are not.
    const entries = await loadActiveEntries(this.db);
    if ((await activeEntriesKey(this.db)) !== sourceKey) {
      this.lastLoad = "this thread";
      return buildIndex(entries);
    }
    if (this.buildInWorker) {
      const built = await buildIndexInWorker(cacheDir, sourceKey, entries);
      if (!built.error) index = loadCachedIndex(cacheDir, sourceKey);
      this.lastLoad = "worker";
      this.workerFailure = built.error;
    }
    if (!index) {
      index = (await loadOrBuildIndex(cacheDir, sourceKey, () => entries)).index;
      this.lastLoad = "this thread";
    }
    return index;
  }
}

const screeningStarting = () =>
  new AppError(
    "UNAVAILABLE",
    "Restricted-party screening is still loading its lists (the server has just started). Please try again in a few seconds.",
    { headers: { "Retry-After": "5" } },
  );

const BUILT_INDEXES = new Map<string, Promise<ScreeningIndex>>();
