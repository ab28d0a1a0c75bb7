// A web upload's contacts import in a child process, screening included: the same program started
// again (`import-upload`), the way the CLI imports (decision 009 and 012). The child
// - keeps the memory it frees (MIMALLOC_PURGE_DELAY=-1; the server keeps returning its memory), which
//   on a bulk write saves the kernel time of faulting the same pages in again and again;
// - screens every new contact while importing (its own screening worker), so each is written once
//   with its outcome, its result, audit row and screenings-list row inside the import's one
//   all-or-nothing transaction, instead of being written pending and updated again after the import;
// - ends with the server (it watches its parent), so a killed server leaves nothing half-imported.
// The server's event loop only reads the child's messages; its other writes queue behind the
// import's transaction on the in-process write lock, as they did behind the worker thread's. Both
// ends of the conversation are here: importInChild (the server) and importUploadCommand (the child).
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { and, eq } from "drizzle-orm";
import { holdWriteLock, openDatabase, sqliteCodeOf, type TDb } from "../../../db/client";
import { users } from "../../../db/schema";
import { bulkChildEnv, LIFELINE } from "../../lib/bulk-process";
import { QueryScreener, ScreeningWorker } from "../screening/screening-worker";
import { ImportFileError, importContacts, startParseWorker, type TImportReport } from "./contact-import";
import { OFF_THREAD_MIN_BYTES } from "./contact-import-off-thread";
import { byteSlices, decodeUtf8 } from "./contact-rows";

/** What the screening of an import needs from the configuration. */
export type TImportScreeningEnv = {
  dataDir: string;
  databaseUrl: string;
  databaseAuthToken: string | undefined;
  screeningThreshold: number;
};

/**
 * The screening workers for an import of this many bytes: how many start with it, and whether one
 * more may start as it goes. A second screening worker holds its own copy of the index (the stored
 * file is ~32 MB), so it starts only for files big enough to keep two busy: a file's distinct names
 * cost ~0.4–0.6 ms each to score, which for a few megabytes of new names is more than the main
 * thread's own share of the import. It also needs a core of its own: the main thread's SQL is the
 * import's critical path, and on a 2-core machine two workers (each loading the index and compiling
 * the engine again) took CPU from it instead of adding any (20,000 rows: ~2 s less CPU in
 * all with one worker) — unless most of the file's names are distinct: scoring is then the critical
 * path, and the main thread mostly waits for it. On two cores the first worker's own scoring tells
 * (MAY_ADD_WORKER_STEPS): the main thread no longer reads a sample of the file first (~0.2 s of its
 * start).
 */
export function screeningWorkerPlan(
  bytes: number,
  cores = availableParallelism(),
): { workers: 1 | 2; mayAddOne: boolean } {
  if (bytes < TWO_WORKERS_FROM_BYTES) return { workers: 1, mayAddOne: false };
  return cores >= 3 ? { workers: 2, mayAddOne: false } : { workers: 1, mayAddOne: true };
}
/** From this size on, a file is parsed on a worker of its own, and may get a second screening worker. */
export const TWO_WORKERS_FROM_BYTES = 1_000_000;
/**
 * When scoring is an import's critical path even on two cores: the share of names the worker had to
 * score among the first queries it answered. Measured with 20,000 new contacts on 2 cores: every name
 * distinct, 16.2 s with one worker and 12.0 s with two; the bench file (8,470 spellings of 520
 * names), 4.2 s with one and 4.8 s with two. Its share is ~0.26 over 2,000 queries but ~0.64 over
 * 500 (the first rows name most of the 520 for the first time), hence the stricter early step; an
 * address book of different companies is near 1 at any point.
 */
export const MAY_ADD_WORKER_STEPS = [
  { afterQueries: 500, minShare: 0.9 },
  { afterQueries: 2_000, minShare: 0.5 },
];

/**
 * Starts the screening workers for an import of `bytes` bytes before the caller opens the database,
 * so they load their index of the lists while it prepares: each row then goes to them as soon as it
 * is parsed, and is written with its outcome once that is back (decision 009). A worker that starts
 * before a migration or without lists fails, and the import then leaves its new contacts pending
 * for the screening after it.
 */
export function startImportScreening(
  env: TImportScreeningEnv,
  bytes: number,
): { workers: ScreeningWorker[]; screener: QueryScreener | null } {
  const workers: ScreeningWorker[] = [];
  const start = () => {
    const worker = ScreeningWorker.start(env.databaseUrl, env.databaseAuthToken, env.screeningThreshold);
    if (worker) workers.push(worker);
    return worker;
  };
  const plan = screeningWorkerPlan(bytes);
  for (let i = 0; i < plan.workers; i++) start();
  if (!workers.length) return { workers, screener: null };
  return {
    workers,
    screener: new QueryScreener(
      [...workers],
      plan.mayAddOne ? { steps: MAY_ADD_WORKER_STEPS.map((step) => ({ ...step })), start } : undefined,
    ),
  };
}

/**
 * The lines the child writes on its standard output, one JSON object each: started; ready (the file
 * read and the database open, about to begin the import's transaction: it waits for "go" on its
 * standard input); progress; and done or the error.
 */
export type TImportChildMessage =
  | { type: "started" }
  | { type: "ready" }
  | { type: "progress"; rows: number; percent: number }
  | { type: "done"; report: TImportReport }
  | { type: "file-error"; message: string }
  | { type: "error"; message: string; code?: string };

const MESSAGE_TYPES = new Set(["started", "ready", "progress", "done", "file-error", "error"]);

/** A line of the child's output as a message, or null for anything else (it is ignored). */
export function childMessageOf(line: string): TImportChildMessage | null {
  try {
    const message = JSON.parse(line) as { type?: unknown } | null;
    return message && typeof message === "object" && MESSAGE_TYPES.has(message.type as string)
      ? (message as TImportChildMessage)
      : null;
  } catch {
    return null;
  }
}

/** The child's command, and how the server starts it. */
export const IMPORT_CHILD_COMMAND = "import-upload";

/** What the server sends the child once it holds the write lock: the import may begin. */
export const GO = "go\n";

/**
 * An upload's import that has not answered after this long is stopped (a child that hangs would
 * otherwise hold every write of the server): the largest upload (UPLOAD_MAX_MB) takes well under a
 * minute on a small machine.
 */
export const CHILD_DEADLINE_MS = 15 * 60 * 1000;

/**
 * Imports an uploaded file in a child process (see the top of this file). The file goes to the
 * child's standard input (its length on a line, then its bytes); this process takes its write lock
 * only when the child is ready to begin its transaction, and lets it begin ("go"). Null when it
 * cannot (a small file, for which starting a process costs more than its import; an in-memory
 * database; no way to start the program again; a child that did not start): the caller then imports
 * in this process. A child that stops, hangs past `deadlineMs` or says something else than an
 * answer is killed before the lock is released, so its transaction is over by then.
 */
export async function importInChild(
  db: TDb,
  self: string[] | undefined,
  env: TImportScreeningEnv,
  target: { workspaceId: number; userId: number },
  bytes: Uint8Array,
  onProgress?: (progress: { rows: number; percent: number }) => void,
  deadlineMs = CHILD_DEADLINE_MS,
): Promise<TImportReport | null> {
  if (!self?.length || bytes.length < OFF_THREAD_MIN_BYTES || env.databaseUrl.includes(":memory:"))
    return null;
  let child: ReturnType<typeof Bun.spawn<"pipe", "pipe", "pipe">>;
  try {
    child = Bun.spawn(
      [
        ...self,
        IMPORT_CHILD_COMMAND,
        "--workspace",
        String(target.workspaceId),
        "--user",
        String(target.userId),
      ],
      {
        env: bulkChildEnv({
          ...process.env,
          DATA_DIR: env.dataDir,
          DATABASE_URL: env.databaseUrl,
          ...(env.databaseAuthToken ? { DATABASE_AUTH_TOKEN: env.databaseAuthToken } : {}),
          SCREENING_THRESHOLD: String(env.screeningThreshold),
          LOG_LEVEL: "warn",
        }),
        // The file on standard input, the answer on standard output; descriptor 3 is the lifeline
        // the child watches to end at once with this process (server/lib/bulk-process.ts).
        stdio: ["pipe", "pipe", "pipe", LIFELINE],
      },
    );
  } catch {
    return null;
  }
  let release: (() => void) | null = null;
  let result: TImportChildMessage | null = null;
  let hasStarted = false;
  let isPastDeadline = false;
  const deadline = setTimeout(() => {
    isPastDeadline = true;
    child.kill("SIGKILL");
  }, deadlineMs);
  const stderr = new Response(child.stderr).text();
  try {
    const send = async (data: string | Uint8Array) => {
      try {
        child.stdin.write(data);
        await child.stdin.flush();
      } catch {
        // The child is gone: its exit says why.
      }
    };
    // Written while the child's output is read: a child that answers before reading it all (an
    // error) must not leave this process waiting on a full pipe.
    const feeding = send(`${bytes.length}\n`).then(() => send(bytes));
    const decoder = new TextDecoder();
    let buffered = "";
    reading: for await (const chunk of child.stdout) {
      buffered += decoder.decode(chunk, { stream: true });
      for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
        const message = childMessageOf(buffered.slice(0, end));
        buffered = buffered.slice(end + 1);
        if (message?.type === "started") hasStarted = true;
        else if (message?.type === "ready") {
          // This process's writes in progress finish first; the ones after queue behind the import.
          release ??= await holdWriteLock(db);
          await feeding;
          await send(GO);
        } else if (message?.type === "progress")
          onProgress?.({ rows: message.rows, percent: message.percent });
        else if (message) {
          result = message;
          // Answered: the child goes on to checkpoint the log (see importUploadCommand) and exits,
          // while this process's writes go ahead.
          break reading;
        }
      }
    }
  } finally {
    clearTimeout(deadline);
    try {
      child.stdin.end();
    } catch {}
    // No answer: the child is stopped (if it is not already) before the lock goes, so its
    // transaction has rolled back by then.
    if (!result) {
      child.kill("SIGKILL");
      await child.exited;
    }
    release?.();
  }
  if (!result) {
    // A child that could not even start this program leaves the import to this process; one that
    // stopped while importing is the import's failure (its transaction was rolled back).
    if (!hasStarted && !isPastDeadline) return null;
    if (isPastDeadline)
      throw new Error(
        `the import did not finish within ${Math.round(deadlineMs / 60_000)} minutes and was stopped`,
      );
    const why = (await stderr).trim().split("\n").pop();
    throw new Error(
      `the import process stopped (exit ${child.exitCode ?? child.signalCode})${why ? `: ${why}` : ""}`,
    );
  }
  if (result.type === "done") return result.report;
  if (result.type === "file-error") throw new ImportFileError(result.message);
  throw Object.assign(new Error(result.message), { code: result.code });
}

/**
 * The server's child for a web upload (contact-import-child.ts; not a command for people): the file
 * on standard input, imported into the given workspace as the given user with every new contact
 * screened while importing, the outcome as JSON lines on standard output. Contacts it changed are
 * left pending for the server's screening after the import, as an upload in the server leaves them.
 */
export async function importUploadCommand(args: string[], env: TImportScreeningEnv): Promise<number> {
  const say = (message: TImportChildMessage) => process.stdout.write(`${JSON.stringify(message)}\n`);
  const { values } = parseArgs({
    args,
    options: { workspace: { type: "string" }, user: { type: "string" } },
  });
  const target = { workspaceId: Number(values.workspace), userId: Number(values.user) };
  if (!Number.isSafeInteger(target.workspaceId) || !Number.isSafeInteger(target.userId)) {
    console.error("--workspace <id> and --user <id> are required");
    return 2;
  }
  say({ type: "started" });
  const input = new StdinReader();
  const bytes = await input.bytes(Number(await input.line()));
  // Loads its modules while the screening workers start and the database is prepared.
  const parseWorker = bytes.length >= TWO_WORKERS_FROM_BYTES ? startParseWorker() : null;
  const { screener } = startImportScreening(env, bytes.length);
  let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    database = await openDatabase(env.databaseUrl, env.databaseAuthToken);
    const [user] = await database.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, target.userId), eq(users.workspace_id, target.workspaceId)));
    if (!user) throw new Error("the importing user is not in that workspace");
    // The server's writes go on until the import's transaction begins, once the server has taken
    // its write lock for it. (Waiting for the screening worker's index first held the lock no less,
    // the first rows waiting for it inside the transaction, and the import took 0.1–0.2 s longer:
    // rows are parsed while the index loads.)
    say({ type: "ready" });
    if ((await input.line()) !== GO.trim()) throw new Error("the server did not let the import begin");
    let shown = performance.now();
    // The share done is of the file's lines (a quoted value may hold a line break: near enough for
    // a progress bar), since a big file's bytes are all read ahead of the rows written.
    let lines = 0;
    for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) lines++;
    const report = await importContacts(database.db, target, decodeUtf8(byteSlices(bytes)), {
      parseOffThread: parseWorker ?? false,
      // An embedded file's log (a libSQL server keeps its own).
      deferCheckpoint: env.databaseUrl.startsWith("file:"),
      onProgress: (rows) => {
        if (performance.now() - shown < CHILD_PROGRESS_MS) return;
        shown = performance.now();
        say({ type: "progress", rows, percent: Math.min(99, Math.floor((rows / Math.max(1, lines)) * 100)) });
      },
      screening: screener ? { screener, threshold: env.screeningThreshold } : undefined,
    });
    say({ type: "done", report });
    // The server has its answer and lets its own writes in again: the write-ahead log the import
    // grew (tens of megabytes) is copied into the database file now, beside them, instead of inside
    // the commit it was waiting for.
    if (env.databaseUrl.startsWith("file:")) await database.client.execute("PRAGMA wal_checkpoint(PASSIVE)");
  } catch (error) {
    say(
      error instanceof ImportFileError
        ? { type: "file-error", message: error.message }
        : { type: "error", message: String((error as Error)?.message ?? error), code: sqliteCodeOf(error) },
    );
  } finally {
    await screener?.stopWhenLoaded();
    parseWorker?.worker.terminate();
    database?.close();
  }
  return 0;
}
/** Standard input read as the upload's child needs it: a line, then so many bytes, then a line. */
class StdinReader {
  private readonly reader = (Bun.stdin.stream() as ReadableStream<Uint8Array>).getReader();
  private buffered = new Uint8Array(0);

  private async more(): Promise<boolean> {
    const { done, value } = await this.reader.read();
    if (done) return false;
    const joined = new Uint8Array(this.buffered.length + value.length);
    joined.set(this.buffered);
    joined.set(value, this.buffered.length);
    this.buffered = joined;
    return true;
  }

  /** The next line, without its end; what is left when the input ends first. */
  async line(): Promise<string> {
    for (;;) {
      const end = this.buffered.indexOf(10);
      if (end >= 0) {
        const line = new TextDecoder().decode(this.buffered.subarray(0, end));
        this.buffered = this.buffered.subarray(end + 1);
        return line;
      }
      if (!(await this.more())) {
        const rest = new TextDecoder().decode(this.buffered);
        this.buffered = new Uint8Array(0);
        return rest;
      }
    }
  }

  /** The next `length` bytes; an error when the input ends first. */
  async bytes(length: number): Promise<Uint8Array> {
    if (!Number.isSafeInteger(length) || length < 0) throw new Error("the file's length was not given");
    const chunks: Uint8Array[] = [];
    let total = 0;
    // Whole chunks as they come, rather than joined again and again: the file is megabytes.
    if (this.buffered.length) {
      chunks.push(this.buffered);
      total = this.buffered.length;
      this.buffered = new Uint8Array(0);
    }
    while (total < length) {
      const { done, value } = await this.reader.read();
      if (done) throw new Error("the file ended before its length");
      chunks.push(value);
      total += value.length;
    }
    const all = new Uint8Array(total);
    let at = 0;
    for (const chunk of chunks) {
      all.set(chunk, at);
      at += chunk.length;
    }
    this.buffered = all.subarray(length);
    return all.subarray(0, length);
  }
}

/** How often the upload's child tells the server how far it got. */
const CHILD_PROGRESS_MS = 250;
