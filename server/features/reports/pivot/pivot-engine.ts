// The reports' pivots answered in this process: one DuckDB (native, its own threads) holds one table
// of lines per workspace, loaded from the same line reader and record batches as the Arrow stream,
// and one Perspective VirtualServer per connection turns the viewer's requests into SQL over it.
// Runs inside the pivot worker (pivot.worker.ts); tests run it directly.
import { readFileSync } from "node:fs";
import type { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { createClient } from "@libsql/client";
// The protocol's client/SQL-model module, without Perspective's Node entry (which loads its whole
// engine at import, with a top-level await the executable's bundle cannot hold).
import perspectiveClientWasm from "@perspective-dev/client/dist/wasm/perspective-js.wasm" with {
  type: "file",
};
import { DataType, type RecordBatch, RecordBatchReader, type Schema } from "apache-arrow";
import { inflateStage0 } from "../../../lib/wasm-stage0";
import { reportWorkerFallback, workerUrl } from "../../../lib/worker-url";
import { reportSchema, toRecordBatch } from "../report-arrow";
import { readLinePages } from "../report-lines";
import { loadLookups } from "../report-lookups";
import { reportRowSource } from "../report-row-source";
import { BatchAppender } from "./pivot-append";
import { PIVOT_MACROS, PivotHandler } from "./pivot-handler";
import type { TPivotLinesIn, TPivotLinesOut } from "./pivot-protocol";

type TPerspective = typeof import("@perspective-dev/client/dist/wasm/perspective-js.js");

export type TPivotSource = {
  databaseUrl: string;
  authToken?: string;
  /** Called when the last idle table was dropped and no connection is open: the engine may stop. */
  onIdle?: () => void;
  /** Read the lines on the engine's own thread instead of a reader worker (what it falls back to). */
  readOnThisThread?: boolean;
  /** How long an unused table stays loaded (default IDLE_MS; tests shorten it). */
  idleMs?: number;
};

/** One workspace's loaded lines: a DuckDB table, what they were loaded from, and who still uses it. */
type TLoaded = { table: string; fingerprint: string; users: number };

/** Most values a text column is stored as an ENUM with (two bytes a line); more stay VARCHAR. */
const ENUM_MAX_VALUES = 65_535;

const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * The lines' table, created when the first batch arrives, its columns the stream's: each column
 * that is a dictionary in the Arrow stream (a status, a carrier, a party, a product…) becomes an
 * ENUM of its values, sorted as text (the order a grouping shows): 1–2 bytes a line instead of a
 * 16-byte string. Loading a million lines into VARCHAR columns took DuckDB ~250 MB before it
 * compressed them. Without a batch (no lines) the dictionaries are empty: those columns are VARCHAR.
 */
export function tableDdl(table: string, schema: Schema, first?: RecordBatch): string {
  const columns = schema.fields.map((field, i) => {
    const { type } = field;
    let sql = "VARCHAR";
    if (DataType.isDictionary(type)) {
      const values = [...new Set((first?.data.children[i].dictionary?.toArray() ?? []) as string[])].sort();
      if (values.length > 0 && values.length <= ENUM_MAX_VALUES)
        sql = `ENUM(${values.map(sqlText).join(", ")})`;
    } else if (DataType.isInt(type)) sql = "INTEGER";
    else if (DataType.isFloat(type)) sql = "DOUBLE";
    else if (DataType.isDate(type)) sql = "DATE";
    else if (DataType.isBool(type)) sql = "BOOLEAN";
    else if (!DataType.isUtf8(type))
      throw new Error(`The report column ${field.name} has Arrow type ${type}`);
    return `"${field.name.replaceAll('"', '""')}" ${sql}`;
  });
  return `CREATE TABLE "${table}" (${columns.join(", ")})`;
}

/** DuckDB's row group: the lines a checkpoint compresses together. */
const ROW_GROUP_LINES = 122_880;

/**
 * A load reads a row group in this many pages (7,680 lines each: the reader's heap stays small) and
 * checkpoints each full one while the next pages are read.
 */
const PAGES_PER_ROW_GROUP = 16;

/** DuckDB's own cap (SET memory_limit): a view that would need more fails with a message instead of growing the process. */
const PIVOT_MEMORY_LIMIT_MB = 512;

/** How long a workspace's table stays loaded after its last connection closed. */
const IDLE_MS = 5 * 60_000;

/**
 * Answers the workspace's fingerprint: it changes when anything the report shows changes (the
 * shipments' triggers raise home_versions on every shipment or contact write; products carry their
 * own updated_at). One indexed read, so every new connection can afford it.
 */
const FINGERPRINT_SQL = `
select coalesce((select version from home_versions where workspace_id = ?), 0) || '/' ||
  coalesce((select max(updated_at) from products where workspace_id = ?), '') || '/' ||
  coalesce((select max(updated_at) from shipments where workspace_id = ?), '')`;

/** DuckDB's threads: the machine's cores, which it shares with the rest of the process while it groups. */
const PIVOT_THREADS = 2;

/** The lines reader worker stopped (not a query of its that failed). */
class ReaderStoppedError extends Error {
  constructor(
    readonly url: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The Arrow stream of the workspace's lines from a lines reader worker, chunk by chunk, telling it
 * each time one was taken (it stays at most two ahead); null when the worker cannot start.
 */
function readerChunks(
  source: TPivotSource,
  workspaceId: number,
  pageSize: number,
): AsyncIterable<Uint8Array> | null {
  const url = workerUrl(new URL("./pivot-lines.worker.ts", import.meta.url));
  let reader: Worker;
  try {
    reader = new Worker(url);
  } catch (error) {
    reportWorkerFallback(url, error instanceof Error ? error.message : String(error));
    return null;
  }
  const queue: TPivotLinesOut[] = [];
  let wake: (() => void) | null = null;
  const push = (message: TPivotLinesOut) => {
    queue.push(message);
    wake?.();
    wake = null;
  };
  reader.onmessage = (event: MessageEvent<TPivotLinesOut>) => push(event.data);
  let stopped: ReaderStoppedError | null = null;
  reader.onerror = (event) => {
    stopped = new ReaderStoppedError(url, event.message || "The lines reader stopped");
    push({ type: "failed", message: stopped.message });
  };
  reader.postMessage({
    type: "read",
    databaseUrl: source.databaseUrl,
    authToken: source.authToken,
    workspaceId,
    pageSize,
  } satisfies TPivotLinesIn);
  return (async function* () {
    try {
      while (true) {
        if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        const message = queue.shift()!;
        if (message.type === "end") return;
        if (message.type === "failed") throw stopped ?? new Error(message.message);
        reader.postMessage({ type: "taken" } satisfies TPivotLinesIn);
        yield new Uint8Array(message.bytes);
      }
    } finally {
      reader.terminate();
    }
  })();
}

/**
 * One workspace's DuckDB: an instance of its own, so that no statement run for one workspace's
 * viewers can name another's lines, whatever SQL the view configs lead Perspective's model to write.
 */
type TStore = { db: DuckDBInstance; conn: DuckDBConnection };

type TSession = {
  server: InstanceType<TPerspective["VirtualServer"]>;
  handler: PivotHandler;
  conn: DuckDBConnection;
  workspaceId: number;
  loaded: TLoaded;
};

/** How many times the load's last checkpoint is tried while viewers of the same workspace write. */
const FINAL_CHECKPOINT_TRIES = 20;

export class PivotEngine {
  #perspective: TPerspective;
  #source: TPivotSource;
  #client: ReturnType<typeof createClient>;
  #duckdb: typeof import("@duckdb/node-api");
  #stores = new Map<number, Promise<TStore>>();
  #tables = new Map<number, TLoaded>();
  #loading = new Map<number, Promise<TLoaded>>();
  #idle = new Map<number, ReturnType<typeof setTimeout>>();
  #sessions = new Map<number, TSession>();
  /** Statements of the engine's own still running (drops): stop() waits for them. */
  #pending = new Set<Promise<unknown>>();
  #generation = 0;
  #loadsByReader = 0;

  private constructor(
    duckdb: typeof import("@duckdb/node-api"),
    perspective: TPerspective,
    source: TPivotSource,
  ) {
    this.#duckdb = duckdb;
    this.#perspective = perspective;
    this.#source = source;
    this.#client = createClient({ url: source.databaseUrl, authToken: source.authToken });
  }

  /** Loads DuckDB's native library and Perspective's SQL model; each workspace's DuckDB starts on its first load. */
  static async start(source: TPivotSource): Promise<PivotEngine> {
    const duckdb = await import("@duckdb/node-api");
    const perspective: TPerspective = await import("@perspective-dev/client/dist/wasm/perspective-js.js");
    perspective.initSync({
      module: await inflateStage0(new Uint8Array(readFileSync(perspectiveClientWasm))),
    });
    return new PivotEngine(duckdb, perspective, source);
  }

  /** The workspace's DuckDB, started on first use (tens of milliseconds). */
  #store(workspaceId: number): Promise<TStore> {
    let store = this.#stores.get(workspaceId);
    if (!store) {
      store = this.#openStore();
      this.#stores.set(workspaceId, store);
      store.catch(() => this.#stores.delete(workspaceId));
    }
    return store;
  }

  async #openStore(): Promise<TStore> {
    const db = await this.#duckdb.DuckDBInstance.create(":memory:", {
      threads: String(PIVOT_THREADS),
      memory_limit: `${PIVOT_MEMORY_LIMIT_MB}MB`,
      // Nothing but the lines it is given: no extension is installed or fetched at run time.
      autoinstall_known_extensions: "false",
      autoload_known_extensions: "false",
      // The loads' uncompressed row groups and the views' temporary tables are freed back to the
      // system when a task ends, instead of the allocator keeping up to 128 MB a thread.
      allocator_flush_threshold: "32MB",
      allocator_bulk_deallocation_flush_threshold: "32MB",
    });
    const conn = await db.connect();
    // Tables in a compressed in-memory database: DuckDB compresses their columns as it would on disk.
    await conn.run("ATTACH ':memory:' AS pivot_lines (COMPRESS)");
    await conn.run("USE pivot_lines");
    for (const sql of Object.values(PIVOT_MACROS)) await conn.run(sql);
    // Native DuckDB could read and write files: none of its SQL may reach the file system or change
    // that again.
    await conn.run("SET enable_external_access = false");
    await conn.run("SET lock_configuration = true");
    return { db, conn };
  }

  /** Closes the workspace's DuckDB once it holds no table and serves no connection. */
  async #closeStoreIfUnused(workspaceId: number): Promise<void> {
    const inUse =
      this.#tables.has(workspaceId) ||
      this.#loading.has(workspaceId) ||
      [...this.#sessions.values()].some((s) => s.workspaceId === workspaceId);
    const store = this.#stores.get(workspaceId);
    if (inUse || !store) return;
    this.#stores.delete(workspaceId);
    const { db, conn } = await store;
    conn.closeSync();
    db.closeSync();
  }

  /** The workspace's fingerprint as the database has it now. */
  async fingerprint(workspaceId: number): Promise<string> {
    const result = await this.#client.execute({
      sql: FINGERPRINT_SQL,
      args: [workspaceId, workspaceId, workspaceId],
    });
    return String(result.rows[0][0]);
  }

  /**
   * The workspace's table, loaded afresh when its fingerprint changed since the last load; openers
   * at the same time share one load.
   */
  async #table(workspaceId: number): Promise<TLoaded> {
    const pending = this.#loading.get(workspaceId);
    if (pending) return pending;
    const load = (async () => {
      const fingerprint = await this.fingerprint(workspaceId);
      const current = this.#tables.get(workspaceId);
      if (current && current.fingerprint === fingerprint) return current;
      const store = await this.#store(workspaceId);
      const table = `lines_${++this.#generation}`;
      try {
        await this.#load(store.conn, workspaceId, table);
      } catch (error) {
        // A load that failed half way leaves no table behind.
        await store.conn.run(`DROP TABLE IF EXISTS "${table}"`).catch(() => undefined);
        throw error;
      }
      const loaded: TLoaded = { table, fingerprint, users: 0 };
      if (current && current.users === 0) await this.#drop(workspaceId, current);
      this.#tables.set(workspaceId, loaded);
      return loaded;
    })();
    this.#loading.set(workspaceId, load);
    try {
      return await load;
    } finally {
      this.#loading.delete(workspaceId);
    }
  }

  /**
   * The workspace's lines as Arrow record batches of a quarter row group each: read and encoded by
   * the lines reader (pivot-lines.worker.ts) while this thread appends the batches before, or on
   * this thread when that worker cannot start.
   */
  async #lines(workspaceId: number): Promise<{ schema: Schema; batches: AsyncIterable<RecordBatch> }> {
    const pageSize = ROW_GROUP_LINES / PAGES_PER_ROW_GROUP;
    const chunks = this.#source.readOnThisThread ? null : readerChunks(this.#source, workspaceId, pageSize);
    if (chunks) {
      try {
        const reader = await RecordBatchReader.from(chunks);
        await reader.open();
        this.#loadsByReader++;
        return { schema: reader.schema, batches: reader };
      } catch (error) {
        // A reader that could not run (its module failed to load) leaves the reading to this
        // thread; a query that failed fails here too.
        if (!(error instanceof ReaderStoppedError)) throw error;
        reportWorkerFallback(error.url, error.message);
      }
    }
    const rows = reportRowSource(this.#client, this.#source.databaseUrl);
    const lookups = await loadLookups(this.#client, workspaceId);
    // Named by label, as the Arrow stream the browser pivots is (saved setups name columns so).
    const schema = reportSchema(lookups, "labels");
    const pages = readLinePages(rows, workspaceId, lookups, pageSize);
    return {
      schema,
      batches: (async function* () {
        for await (const page of pages) yield toRecordBatch(page, lookups, schema);
      })(),
    };
  }

  /**
   * A checkpoint, which DuckDB refuses while another connection of the workspace's (a viewer making
   * or dropping a view) is writing: compression waits for the next one then.
   */
  static async #checkpoint(conn: DuckDBConnection, tries = 1): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        await conn.run("CHECKPOINT pivot_lines");
        return true;
      } catch {
        if (attempt >= tries) return false;
        await Bun.sleep(50);
      }
    }
  }

  /** Copies the workspace's lines into `table`, one record batch (one SQL page) at a time. */
  async #load(conn: DuckDBConnection, workspaceId: number, table: string): Promise<void> {
    const { schema, batches } = await this.#lines(workspaceId);
    let appender: BatchAppender | undefined;
    // Appended lines sit uncompressed (~240 bytes a line) until a checkpoint compresses them (~28):
    // one per full row group keeps the load's peak near what the table keeps (a million lines keep
    // ~28 MB). DuckDB's threads compress while the next batches are read and appended.
    let compressing: Promise<unknown> = Promise.resolve();
    let sinceCheckpoint = 0;
    try {
      for await (const batch of batches) {
        if (!appender) {
          await conn.run(tableDdl(table, schema, batch));
          appender = new BatchAppender(await conn.createAppender(table));
        }
        await compressing;
        appender.append(batch);
        sinceCheckpoint += batch.numRows;
        if (sinceCheckpoint >= ROW_GROUP_LINES) {
          sinceCheckpoint = 0;
          appender.flush();
          compressing = PivotEngine.#checkpoint(conn);
          // A few batches are garbage now; collected here, the load's heap stays near one batch.
          Bun.gc(true);
        }
      }
    } finally {
      await compressing;
      appender?.close();
    }
    if (!appender) await conn.run(tableDdl(table, schema));
    await PivotEngine.#checkpoint(conn, FINAL_CHECKPOINT_TRIES);
    // The batches are garbage now: hand the memory back before anyone pivots.
    Bun.gc(true);
  }

  /** Drops a loaded table (tracked, so that stop() waits for it). */
  async #drop(workspaceId: number, loaded: TLoaded): Promise<void> {
    const store = this.#stores.get(workspaceId);
    if (!store) return;
    const dropping = store.then(({ conn }) => conn.run(`DROP TABLE IF EXISTS "${loaded.table}"`));
    this.#pending.add(dropping);
    try {
      await dropping;
    } finally {
      this.#pending.delete(dropping);
    }
  }

  /**
   * Loads (or refreshes) the workspace's lines before anyone connects: the page that is about to
   * connect asks for it with its first request. Dropped when idle, like a table whose users left.
   */
  async warm(workspaceId: number): Promise<void> {
    const loaded = await this.#table(workspaceId);
    if (loaded.users === 0) this.#dropWhenIdle(workspaceId, loaded);
  }

  /** Opens connection `id` for the workspace: its lines are loaded (or refreshed) first. */
  async open(id: number, workspaceId: number): Promise<void> {
    this.#cancelIdle(workspaceId);
    let conn: DuckDBConnection | undefined;
    let loaded: TLoaded;
    try {
      loaded = await this.#table(workspaceId);
      // A DuckDB connection of its own: one connection runs one statement at a time.
      conn = await (await this.#store(workspaceId)).db.connect();
      await conn.run("USE pivot_lines");
    } catch (error) {
      conn?.closeSync();
      // What is loaded still goes when idle.
      const current = this.#tables.get(workspaceId);
      if (current && current.users === 0) this.#dropWhenIdle(workspaceId, current);
      throw error;
    }
    loaded.users++;
    const handler = new PivotHandler(conn, this.#perspective, loaded.table, `v${id}_`);
    const server = new this.#perspective.VirtualServer(handler as never);
    this.#sessions.set(id, { server, handler, conn, workspaceId, loaded });
  }

  /** Answers one Perspective request of connection `id`. */
  async handle(id: number, request: Uint8Array): Promise<Uint8Array> {
    const session = this.#sessions.get(id);
    if (!session) throw new Error("This report connection is not open");
    const response: Uint8Array = await session.server.handleRequest(request);
    return response.slice();
  }

  /** Closes connection `id`: its views are dropped; the table is dropped once idle or superseded. */
  async close(id: number): Promise<void> {
    const session = this.#sessions.get(id);
    if (!session) return;
    this.#sessions.delete(id);
    await session.handler.dropViews();
    session.server.free();
    session.conn.closeSync();
    const { loaded, workspaceId } = session;
    loaded.users--;
    if (loaded.users > 0) return;
    if (this.#tables.get(workspaceId) !== loaded) {
      await this.#drop(workspaceId, loaded);
      return;
    }
    this.#dropWhenIdle(workspaceId, loaded);
  }

  #cancelIdle(workspaceId: number): void {
    clearTimeout(this.#idle.get(workspaceId));
    this.#idle.delete(workspaceId);
  }

  /** In IDLE_MS, drops the workspace's table if nobody uses it then, and its DuckDB with it. */
  #dropWhenIdle(workspaceId: number, loaded: TLoaded): void {
    this.#cancelIdle(workspaceId);
    const timer = setTimeout(() => {
      if (this.#idle.get(workspaceId) === timer) this.#idle.delete(workspaceId);
      void (async () => {
        if (
          loaded.users === 0 &&
          this.#tables.get(workspaceId) === loaded &&
          !this.#loading.has(workspaceId)
        ) {
          this.#tables.delete(workspaceId);
          await this.#drop(workspaceId, loaded);
          await this.#closeStoreIfUnused(workspaceId);
        }
        if (this.#tables.size === 0 && this.#sessions.size === 0 && this.#loading.size === 0) {
          this.#source.onIdle?.();
        }
      })().catch(() => undefined);
    }, this.#source.idleMs ?? IDLE_MS);
    this.#idle.set(workspaceId, timer);
  }

  /** How many loads the lines reader worker read (tests: proof that it ran). */
  loadsReadOffThread(): number {
    return this.#loadsByReader;
  }

  /** Tables loaded now (tests). */
  loadedTables(): string[] {
    return [...this.#tables.values()].map((t) => t.table);
  }

  /** How many workspaces have a DuckDB of their own now (tests). */
  openStores(): number {
    return this.#stores.size;
  }

  async stop(): Promise<void> {
    for (const id of [...this.#sessions.keys()]) await this.close(id);
    for (const timer of this.#idle.values()) clearTimeout(timer);
    this.#idle.clear();
    await Promise.allSettled([...this.#loading.values(), ...this.#pending]);
    this.#loading.clear();
    this.#tables.clear();
    for (const workspaceId of [...this.#stores.keys()]) await this.#closeStoreIfUnused(workspaceId);
    this.#client.close();
  }
}
