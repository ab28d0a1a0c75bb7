// A libSQL server for tests only: Hrana v2 over HTTP (the protocol @libsql/client speaks for
// http:// URLs) on bun:sqlite. No registry these machines reach ships sqld, so the tests that run
// several app processes against one database use this stand-in.
//
// What it emulates, as sqld does:
// - POST /v2/pipeline with batons: each stream is its own SQLite connection, kept between requests
//   by the baton the previous response gave (a new baton every response), so an interactive
//   transaction spans requests; a stream idle for STREAM_IDLE_MS is closed and its transaction
//   rolled back (a client that died mid-transaction does not hold the write lock for ever).
// - Requests execute, batch (with ok/error/not/and/or/is_autocommit conditions), sequence,
//   store_sql/close_sql, get_autocommit and close; statement errors answer with SQLite's code.
// - One database file in WAL mode: readers run beside the one SQLite writer; a writer that finds the
//   file locked retries for up to BUSY_TIMEOUT_MS without blocking the other streams.
// - Refuses temporary tables (CREATE TEMP TABLE), which sqld does not support.
// - Foreign keys on every new connection, or off with `foreignKeys: false` (a server whose default
//   is off, which the app must refuse).
// What it does not: Hrana v3 and protobuf (the client falls back to v2 as it does with an older
// sqld), cursors, describe, WebSockets, authentication (any token is accepted), replication,
// namespaces, TLS.
import { Database } from "bun:sqlite";

const STREAM_IDLE_MS = 10_000;
const BUSY_TIMEOUT_MS = 5_000;

type TValue =
  | { type: "null" }
  | { type: "integer"; value: string }
  | { type: "float"; value: number }
  | { type: "text"; value: string }
  | { type: "blob"; base64: string };
type TStmt = {
  sql?: string;
  sql_id?: number;
  args?: TValue[];
  named_args?: { name: string; value: TValue }[];
  want_rows?: boolean;
};
type TCond =
  | { type: "ok" | "error"; step: number }
  | { type: "not"; cond: TCond }
  | { type: "and" | "or"; conds: TCond[] }
  | { type: "is_autocommit" };
type TBatch = { steps: { condition?: TCond; stmt: TStmt }[] };
type TRequest =
  | { type: "close" | "get_autocommit" }
  | { type: "execute"; stmt: TStmt }
  | { type: "batch"; batch: TBatch }
  | { type: "sequence"; sql?: string; sql_id?: number }
  | { type: "store_sql"; sql_id: number; sql: string }
  | { type: "close_sql"; sql_id: number }
  | { type: "describe" };
type TStream = { db: Database; sqls: Map<number, string>; timer?: ReturnType<typeof setTimeout> };
type THranaError = { message: string; code?: string };

export type THranaServer = {
  url: string;
  /** Streams currently open (a connection each). */
  openStreams: () => number;
  stop: () => void;
};

class StatementError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** A sequence that failed on a locked database after changing something: not retried. */
class PartlyAppliedError extends StatementError {}

function fromValue(value: TValue): unknown {
  switch (value.type) {
    case "null":
      return null;
    case "integer": {
      const n = BigInt(value.value);
      return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
    }
    case "float":
      return value.value;
    case "text":
      return value.value;
    case "blob":
      return Buffer.from(value.base64, "base64");
  }
}

function toValue(value: unknown): TValue {
  if (value === null || value === undefined) return { type: "null" };
  if (typeof value === "bigint") return { type: "integer", value: value.toString() };
  if (typeof value === "number") return { type: "float", value };
  if (typeof value === "string") return { type: "text", value };
  if (value instanceof Uint8Array) return { type: "blob", base64: Buffer.from(value).toString("base64") };
  return { type: "text", value: String(value) };
}

function errorOf(error: unknown): THranaError {
  const code = (error as { code?: unknown })?.code;
  return {
    message: error instanceof Error ? error.message : String(error),
    ...(typeof code === "string" ? { code } : {}),
  };
}

const isBusy = (error: unknown) => /^SQLITE_BUSY/.test(String((error as { code?: unknown })?.code ?? ""));

/** Runs `work`, retrying while the database is locked by another stream (without blocking them). */
async function whileBusy<T>(work: () => T): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      return work();
    } catch (error) {
      if (!isBusy(error) || error instanceof PartlyAppliedError || Date.now() - started > BUSY_TIMEOUT_MS) {
        throw error;
      }
      await Bun.sleep(2 + Math.random() * 8);
    }
  }
}

/** Starts the server on 127.0.0.1 (port 0: any free port) over the SQLite file `file`. */
export function startHranaServer(options: {
  file: string;
  port?: number;
  foreignKeys?: boolean;
  /** How long a stream may sit idle before it is closed (and its transaction rolled back). */
  streamIdleMs?: number;
}): THranaServer {
  const foreignKeys = options.foreignKeys ?? true;
  const streamIdleMs = options.streamIdleMs ?? STREAM_IDLE_MS;
  const setup = new Database(options.file, { create: true });
  setup.exec("PRAGMA journal_mode = WAL");
  setup.close();
  const streams = new Map<string, TStream>();

  const closeStream = (stream: TStream) => {
    clearTimeout(stream.timer);
    try {
      if (stream.db.inTransaction) stream.db.exec("ROLLBACK");
    } catch {
      // Closing anyway.
    }
    stream.db.close();
  };
  const openStream = (): TStream => {
    const db = new Database(options.file, { safeIntegers: true });
    db.exec("PRAGMA busy_timeout = 0");
    db.exec(`PRAGMA foreign_keys = ${foreignKeys ? "ON" : "OFF"}`);
    return { db, sqls: new Map() };
  };

  const sqlOf = (stream: TStream, stmt: { sql?: string; sql_id?: number }): string => {
    if (stmt.sql !== undefined) return stmt.sql;
    const stored = stmt.sql_id === undefined ? undefined : stream.sqls.get(stmt.sql_id);
    if (stored === undefined) throw new StatementError("Unknown SQL id");
    return stored;
  };

  const execute = async (stream: TStream, stmt: TStmt) => {
    const sql = sqlOf(stream, stmt);
    if (/^\s*CREATE\s+TEMP(ORARY)?\s/i.test(sql)) throw new StatementError("unsupported statement");
    const named: Record<string, unknown> = {};
    for (const arg of stmt.named_args ?? []) named[arg.name] = fromValue(arg.value);
    const args = stmt.named_args?.length ? [named] : (stmt.args ?? []).map(fromValue);
    return whileBusy(() => {
      const query = stream.db.prepare(sql);
      try {
        const cols = query.columnNames.map((name, i) => ({
          name,
          decltype: (query.declaredTypes[i] as string | null) ?? null,
        }));
        if (cols.length === 0) {
          const run = query.run(...(args as []));
          return {
            cols,
            rows: [],
            affected_row_count: Number(run.changes),
            last_insert_rowid: String(run.lastInsertRowid),
          };
        }
        const before = stream.db.query("SELECT total_changes()").values()[0][0];
        const rows = (query.values(...(args as [])) as unknown[][]).map((row) => row.map(toValue));
        const [after, rowid] = stream.db.query("SELECT total_changes(), last_insert_rowid()").values()[0];
        return {
          cols,
          rows: stmt.want_rows === false ? [] : rows,
          affected_row_count: Number(after) - Number(before),
          last_insert_rowid: String(rowid),
        };
      } catch (error) {
        throw new StatementError((error as Error).message, (error as { code?: string }).code);
      } finally {
        query.finalize();
      }
    });
  };

  const batch = async (stream: TStream, steps: TBatch["steps"]) => {
    const results: unknown[] = [];
    const errors: (THranaError | null)[] = [];
    const holds = (cond: TCond): boolean => {
      switch (cond.type) {
        case "ok":
          return results[cond.step] !== null && results[cond.step] !== undefined;
        case "error":
          return errors[cond.step] !== null && errors[cond.step] !== undefined;
        case "not":
          return !holds(cond.cond);
        case "and":
          return cond.conds.every(holds);
        case "or":
          return cond.conds.some(holds);
        case "is_autocommit":
          return !stream.db.inTransaction;
      }
    };
    for (const step of steps) {
      if (step.condition && !holds(step.condition)) {
        results.push(null);
        errors.push(null);
        continue;
      }
      try {
        results.push(await execute(stream, step.stmt));
        errors.push(null);
      } catch (error) {
        results.push(null);
        errors.push(errorOf(error));
      }
    }
    return { step_results: results, step_errors: errors };
  };

  const handle = async (stream: TStream, request: TRequest): Promise<unknown> => {
    switch (request.type) {
      case "execute":
        return { type: "execute", result: await execute(stream, request.stmt) };
      case "batch":
        return { type: "batch", result: await batch(stream, request.batch.steps) };
      case "sequence": {
        const sql = sqlOf(stream, request);
        // Several statements: one that finds the database locked is retried only while none before
        // it has changed anything, or the retry would apply them twice.
        const changes = () => stream.db.query("SELECT total_changes()").values()[0][0];
        const before = changes();
        await whileBusy(() => {
          try {
            stream.db.run(sql);
          } catch (error) {
            if (isBusy(error) && changes() !== before) {
              throw new PartlyAppliedError(
                `Partly applied, then: ${(error as Error).message}`,
                "SQLITE_BUSY",
              );
            }
            throw error;
          }
        });
        return { type: "sequence" };
      }
      case "store_sql":
        stream.sqls.set(request.sql_id, request.sql);
        return { type: "store_sql" };
      case "close_sql":
        stream.sqls.delete(request.sql_id);
        return { type: "close_sql" };
      case "get_autocommit":
        return { type: "get_autocommit", is_autocommit: !stream.db.inTransaction };
      case "close":
        return { type: "close" };
      default:
        throw new StatementError(
          `Request ${JSON.stringify(request.type)} is not supported by this test server`,
        );
    }
  };

  const pipeline = async (body: { baton?: string | null; requests: TRequest[] }) => {
    let stream: TStream | undefined;
    if (body.baton) {
      stream = streams.get(body.baton);
      if (!stream)
        return Response.json(
          { message: "Unknown or expired baton", code: "STREAM_EXPIRED" },
          { status: 400 },
        );
      streams.delete(body.baton);
      clearTimeout(stream.timer);
    } else {
      stream = openStream();
    }
    const results: unknown[] = [];
    let isClosed = false;
    for (const request of body.requests) {
      if (isClosed) {
        results.push({ type: "error", error: { message: "The stream is closed" } });
        continue;
      }
      try {
        results.push({ type: "ok", response: await handle(stream, request) });
      } catch (error) {
        results.push({ type: "error", error: errorOf(error) });
      }
      if (request.type === "close") isClosed = true;
    }
    let baton: string | null = null;
    if (isClosed) {
      closeStream(stream);
    } else {
      const open = stream;
      baton = crypto.randomUUID();
      streams.set(baton, open);
      const expiring = baton;
      open.timer = setTimeout(() => {
        streams.delete(expiring);
        closeStream(open);
      }, streamIdleMs);
    }
    return Response.json({ baton, base_url: null, results });
  };

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: options.port ?? 0,
    maxRequestBodySize: 512 * 1024 * 1024,
    async fetch(request) {
      const url = new URL(request.url);
      if (request.method === "GET" && (url.pathname === "/" || url.pathname === "/health"))
        return new Response("ok");
      if (request.method === "GET" && url.pathname === "/v2") return new Response("ok");
      if (request.method === "POST" && url.pathname === "/v2/pipeline") return pipeline(await request.json());
      return new Response("Not found", { status: 404 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    openStreams: () => streams.size,
    stop: () => {
      server.stop(true);
      for (const stream of streams.values()) closeStream(stream);
      streams.clear();
    },
  };
}

if (import.meta.main) {
  const [file = "hrana.db", port = "8080", fk = "on"] = process.argv.slice(2);
  const server = startHranaServer({ file, port: Number(port), foreignKeys: fk !== "off" });
  console.log(`Hrana test server on ${server.url} over ${file} (foreign keys ${fk})`);
}
