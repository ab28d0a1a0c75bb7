import { accessSync, constants, mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { assertForeignKeysEnforced, ForeignKeysOffError, openDatabase, type TDb } from "../db/client";
import { migrateDatabase, withDatabaseLock } from "../db/migrate";
import { seedReferenceData } from "../db/reference/seed";
import { countries, screening_lists, users } from "../db/schema";
import pkg from "../package.json";
import { ConfigError, loadEnv, type TEnv } from "./env";
import {
  decodeUtf8,
  ImportFileError,
  importContacts,
  startParseWorker,
  type TImportReport,
  type TStartedParseWorker,
} from "./features/contacts/contact-import";
import {
  IMPORT_CHILD_COMMAND,
  importUploadCommand,
  startImportScreening,
  TWO_WORKERS_FROM_BYTES,
} from "./features/contacts/contact-import-child";
import { seedShippedEdition } from "./features/export-control/ear-tables";
import { pivotWebSocket } from "./features/reports/pivot/pivot.routes";
import { INDEX_BUILD_COMMAND } from "./features/screening/index-build-child";
import { setIndexCacheDir } from "./features/screening/index-cache";
import { LISTS_HELP, progressLine, screeningListsCommand } from "./features/screening/lists.cli";
import {
  loadOrBuildActiveIndex,
  ScreeningRegistry,
  seedBundledLists,
} from "./features/screening/lists.service";
import { RescreenJob } from "./features/screening/rescreen";
import { pendingContactIds } from "./features/screening/screening.service";
import type { QueryScreener, ScreeningWorker } from "./features/screening/screening-worker";
import type { TAssetStore } from "./lib/assets";
import { LIFELINE, watchedChildEnv } from "./lib/bulk-process";
import { diskSpace, storageFailureOf } from "./lib/disk-space";
import { createLogger } from "./lib/logger";
import { moveLegacyFiles } from "./lib/storage";
import type { TRenderPage } from "./ssr";

/** Where the process finds what differs between running from source and the compiled binary. */
export type TRuntime = {
  migrationsFolder: () => Promise<string>;
  /** The bundled restricted-party list files, loaded into an empty database. */
  screeningListsFolder: () => Promise<string>;
  assets: () => TAssetStore;
  render: () => Promise<TRenderPage>;
  /** How to start this program again (the bun executable and main.ts from source; the binary alone). */
  self: string[];
};

const HELP = `Tradewinds ${pkg.version}: trade shipments, paperwork and restricted-party screening.

Usage: tradewinds [command]

Commands:
  serve             Apply migrations, seed reference data and serve the app (default)
  migrate           Apply database migrations and seed reference data, then exit
  import-contacts   Import contacts from a CSV file into a user's workspace
                    (tradewinds import-contacts --email <e-mail> <file.csv> [--dry-run];
                    see tradewinds import-contacts --help)
  screening-lists   Import a newer restricted-party list or show the loaded ones
                    (tradewinds screening-lists import <file> [--format csl|ofac-sdn|dpl];
                    tradewinds screening-lists status)
  seed-demo         Create a demo workspace with a printed login and realistic data
                    (tradewinds seed-demo [--shipments N] [--seed S]; see tradewinds seed-demo --help)

Options:
  --help            Show this help
  --version         Show the version

Configuration comes from environment variables: PORT (8000), DATA_DIR (./data),
DATABASE_URL (file:<DATA_DIR>/app.db), DATABASE_AUTH_TOKEN, APP_URL (http://localhost:<PORT>),
LOG_LEVEL (info). See docs/configuration.md.`;

/** Entry point shared by `bun server/main.ts` and the compiled binary; returns the exit code. */
export async function runCli(argv: string[], runtime: TRuntime): Promise<number> {
  const command = argv[0] ?? "serve";
  if (command === "--help" || command === "-h" || command === "help") {
    console.log(HELP);
    return 0;
  }
  if (command === "--version" || command === "-v") {
    console.log(pkg.version);
    return 0;
  }
  const rest = argv.slice(1);
  if (command === "import-contacts" && rest.some((a) => a === "--help" || a === "-h")) {
    console.log(IMPORT_HELP);
    return 0;
  }
  if (
    command === "screening-lists" &&
    (rest.length === 0 || rest.some((a) => a === "--help" || a === "-h"))
  ) {
    console.log(LISTS_HELP);
    return rest.length === 0 ? 2 : 0;
  }
  if (command === "seed-demo" && rest.some((a) => a === "--help" || a === "-h")) {
    const { SEED_DEMO_HELP } = await import("./features/shipments/seed-demo.cli");
    console.log(SEED_DEMO_HELP);
    return 0;
  }
  let env: TEnv;
  try {
    env = loadEnv();
    // Every process of this data folder shares the built screening index (see index-cache.ts).
    // Where none is stored yet, it is built in a child process (this program started again), else on
    // a worker thread: the build's memory then goes with the child (index-build-child.ts).
    if (!env.databaseUrl.includes(":memory:"))
      setIndexCacheDir(path.join(env.dataDir, "cache"), {
        buildInWorker: true,
        buildCommand: command === INDEX_BUILD_COMMAND ? undefined : runtime.self,
      });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
  try {
    return await runCommand(command, rest, env, runtime);
  } catch (error) {
    if (error instanceof ForeignKeysOffError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

async function runCommand(command: string, rest: string[], env: TEnv, runtime: TRuntime): Promise<number> {
  if (command === "migrate") {
    const { close } = await prepareDatabase(env, runtime);
    close();
    console.log(`Database ready at ${env.databaseUrl}`);
    return 0;
  }
  if (command === "serve") return serve(env, runtime);
  if (command === "import-contacts") return importContactsCommand(rest, env, runtime);
  if (command === IMPORT_CHILD_COMMAND) return importUploadCommand(rest, env);
  if (command === INDEX_BUILD_COMMAND) return buildScreeningIndexCommand(rest[0], env);
  if (command === "screening-lists") {
    const database = await prepareDatabase(env, runtime);
    try {
      return await screeningListsCommand(rest, {
        db: database.db,
        logger: createLogger(env.logLevel === "info" ? "warn" : env.logLevel),
        threshold: env.screeningThreshold,
        url: env.databaseUrl,
        authToken: env.databaseAuthToken,
      });
    } finally {
      database.close();
    }
  }
  if (command === "seed-demo") {
    const { seedDemoCommand } = await import("./features/shipments/seed-demo.cli");
    const database = await prepareDatabase(env, runtime);
    try {
      return await seedDemoCommand(rest, database);
    } finally {
      database.close();
    }
  }
  console.error(`Unknown command "${command}". Run tradewinds --help for the list.`);
  return 2;
}

/**
 * The server's child that builds the screening index (index-build-child.ts; not a command for
 * people): reads the active lists of the migrated database, builds their index and stores it in
 * `cacheDir`, unless it is stored there already, then exits.
 */
async function buildScreeningIndexCommand(cacheDir: string | undefined, env: TEnv): Promise<number> {
  if (!cacheDir) {
    console.error(`Usage: tradewinds ${INDEX_BUILD_COMMAND} <folder>`);
    return 2;
  }
  const database = await openDatabase(env.databaseUrl, env.databaseAuthToken);
  try {
    await loadOrBuildActiveIndex(database.db, cacheDir);
    return 0;
  } finally {
    database.close();
  }
}

/**
 * Opens, migrates and seeds the database. With `deferSeed`, a database that already holds the
 * reference data gets its refresh (an upsert of every row) later, through the returned
 * `refreshSeed`, so a server can listen first.
 */
async function prepareDatabase(env: TEnv, runtime: TRuntime, options: { deferSeed?: boolean } = {}) {
  for (const dir of ["", "uploads", "outbox"]) mkdirSync(path.join(env.dataDir, dir), { recursive: true });
  const database = await openDatabase(env.databaseUrl, env.databaseAuthToken);
  try {
    await assertForeignKeysEnforced(database.client);
  } catch (error) {
    database.close();
    throw error;
  }
  let hasReferenceData = false;
  // One process at a time migrates and seeds, whichever machine it runs on: the lock is a row in
  // the database. Two started together on an empty database raced (each seeded the lists).
  const work = async () => {
    await migrateDatabase(database.db, await runtime.migrationsFolder());
    const [anyCountry] = options.deferSeed
      ? await database.db.select({ id: countries.id }).from(countries).limit(1)
      : [];
    hasReferenceData = Boolean(anyCountry);
    if (!hasReferenceData) await seedReferenceData(database.db);
    // A new database gets the restricted-party lists that ship with the product. The binary unpacks
    // them to a folder first, so that is only done for a database that has none.
    const [anyList] = await database.db.select({ id: screening_lists.id }).from(screening_lists).limit(1);
    if (!anyList) await seedBundledLists(database.db, await runtime.screeningListsFolder());
    // The EAR tables' edition that ships with the product (a no-op once stored).
    await seedShippedEdition(database.db);
  };
  await withDatabaseLock(database.client, "migrate", work, (error) => storageFailureOf(error) !== null);
  const refreshSeed = () => seedReferenceData(database.db);
  return { ...database, refreshSeed: hasReferenceData ? refreshSeed : async () => {} };
}

/**
 * A new database (no restricted-party list yet) is migrated and seeded by a child process (this
 * program's `migrate`) before the server prepares it, which then finds nothing left to do: parsing
 * the bundled lists (~20,000 entries) left ~35 MB in the server's heap for good. Where no child can
 * do it (none starts, it fails), the server does it itself, as it always did.
 */
async function prepareNewDatabaseInChild(env: TEnv, self: string[]): Promise<void> {
  if (!self.length || env.databaseUrl.includes(":memory:")) return;
  try {
    const database = await openDatabase(env.databaseUrl, env.databaseAuthToken);
    try {
      const [anyList] = await database.db.select({ id: screening_lists.id }).from(screening_lists).limit(1);
      if (anyList) return;
    } catch {
      // No such table: a new database.
    } finally {
      database.close();
    }
    const child = Bun.spawn([...self, "migrate"], {
      env: watchedChildEnv(process.env),
      // What went wrong, the server says itself when it prepares the database after.
      stdio: ["ignore", "ignore", "ignore", LIFELINE],
    });
    await child.exited;
  } catch {
    // The server prepares the database itself.
  }
}

async function serve(env: TEnv, runtime: TRuntime): Promise<number> {
  // The server's modules load only to serve: a command (an import above all) starts without them.
  const [
    { createApp },
    { purgeUsedSignatures },
    { purgeExpiredSessions },
    { watchListVersions },
    { startPendingSweep },
    { serverBodyCap },
    { purgeRateLimits },
    { createServices },
  ] = await Promise.all([
    import("./app"),
    import("./features/auth/auth.service"),
    import("./features/auth/session.service"),
    import("./features/screening/list-watch"),
    import("./features/screening/pending-sweep"),
    import("./lib/limits"),
    import("./lib/rate-limit"),
    import("./services"),
  ]);
  const logger = createLogger(env.logLevel);
  // A full disk does not stop the start: the server says so, gives back its reserve (room for the
  // database's own files and sign-ins), and refuses writes with a 507 until space is freed.
  mkdirSync(env.dataDir, { recursive: true });
  const disk = diskSpace(env.dataDir, {
    isKeepingReserve: true,
    log: (message, fields) => logger.warn(message, fields),
  });
  disk.probe();
  await prepareNewDatabaseInChild(env, runtime.self);
  let database: Awaited<ReturnType<typeof prepareDatabase>>;
  try {
    database = await prepareDatabase(env, runtime, { deferSeed: true });
  } catch (error) {
    const failure = storageFailureOf(error);
    if (!failure) throw error;
    logger.error(
      failure === "full"
        ? "Cannot start: the disk holding DATA_DIR is full, and the database could not be opened or brought up to date. Free some space, then start again."
        : "Cannot start: DATA_DIR is read-only, and the database could not be opened or brought up to date.",
      { data_dir: env.dataDir, error: String((error as Error)?.message ?? error) },
    );
    return 1;
  }
  const services = createServices(env, logger, database.db);
  services.screening.registry.limitRequestWait(SCREENING_REQUEST_WAIT_MS);
  // The server listens before the slow parts are ready: the page renderer (the client's route tree)
  // loads right after, and the screening index builds in the background; requests that need either
  // wait for it (screening past SCREENING_REQUEST_WAIT_MS answers 503 with Retry-After).
  let renderer: Promise<TRenderPage> | undefined;
  const loadRenderer = () => {
    renderer ??= runtime.render();
    return renderer;
  };
  const app = createApp({
    db: database.db,
    env,
    logger,
    ...services,
    assets: runtime.assets(),
    render: async (args) => (await loadRenderer())(args),
    self: runtime.self,
    disk,
  });
  // Bun's default 128 MB cap sits below a legal document upload (10 files × UPLOAD_MAX_MB).
  const server = Bun.serve({
    port: env.port,
    fetch: app.fetch,
    websocket: pivotWebSocket,
    idleTimeout: 60,
    maxRequestBodySize: serverBodyCap(env),
  });
  // performance.now() counts from the start of the process.
  const sinceStart = () => Math.round(performance.now());
  logger.info(`Tradewinds ${pkg.version} listening on http://localhost:${server.port}`, {
    start_to_listening_ms: sinceStart(),
    data_dir: env.dataDir,
    database: env.databaseUrl.replace(/\/\/[^@]*@/, "//***@"),
  });
  // Contacts saved but not screened (a crash, a failed screening) are finished once the index is
  // ready, then every minute. Started before that, the sweep held the first requests behind the build.
  let stopSweeping = () => {};
  const housekeeping = () =>
    Promise.all([
      purgeExpiredSessions(database.db),
      purgeRateLimits(database.db),
      purgeUsedSignatures(database.db),
    ]).catch((error) => logger.error("housekeeping failed", { error: String(error) }));
  const timer = setInterval(housekeeping, 60 * 60 * 1000);
  const stopWatching = watchListVersions({
    db: database.db,
    registry: services.screening.registry,
    rescreen: services.screening.rescreen,
    logger,
  });
  // Give the first requests (health checks, a waiting browser) the event loop before the heavy work.
  const warmUp = setTimeout(async () => {
    await loadRenderer().catch((error) =>
      logger.error("loading the page renderer failed", { error: String(error) }),
    );
    await database
      .refreshSeed()
      .catch((error) => logger.error("refreshing the reference data failed", { error: String(error) }));
    await housekeeping();
    try {
      const { index, lists } = await services.screening.registry.get();
      logger.info("screening index ready", {
        start_to_index_ready_ms: sinceStart(),
        entries: index.stats.entries,
        lists: lists.length,
        index_from: services.screening.registry.lastLoad,
        ...(services.screening.registry.childFailure
          ? { build_process_failed: services.screening.registry.childFailure }
          : {}),
        ...(services.screening.registry.workerFailure
          ? { build_worker_failed: services.screening.registry.workerFailure }
          : {}),
      });
    } catch (error) {
      logger.error("building the screening index failed", { error: String(error) });
    }
    if (!isStopping) stopSweeping = startPendingSweep({ db: database.db, logger, ...services.screening });
    // Uploads an earlier version kept on this machine's disk go into the database, for every process.
    if (!isStopping)
      await moveLegacyFiles(path.join(env.dataDir, "uploads"), services.storage)
        .then((moved) => moved && logger.info("moved uploaded files into the database", { files: moved }))
        .catch((error) =>
          logger.error("moving uploaded files into the database failed", { error: String(error) }),
        );
  }, WARM_UP_DELAY_MS);
  // Handlers first: a SIGTERM that arrives while starting up still shuts down cleanly.
  let isStopping = false;
  const shutdown = async (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    logger.info(`${signal} received: finishing in-flight requests`);
    // stop(false) refuses new connections and resolves once in-flight requests are answered.
    clearTimeout(warmUp);
    clearInterval(timer);
    stopWatching();
    stopSweeping();
    await server.stop(false);
    database.close();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  const [anyUser] = await database.db.select({ id: users.id }).from(users).limit(1);
  if (!anyUser) {
    logger.info(`No accounts yet. Create the first one at ${env.appUrl}/auth/register`);
  }

  return new Promise<number>(() => {});
}

/** How long a screening request waits for the index being built at start before it gets a 503. */
const SCREENING_REQUEST_WAIT_MS = 8_000;
/** Pause between listening and the heavy start-up work, so the first requests are answered at once. */
const WARM_UP_DELAY_MS = 300;

const IMPORT_HELP = `Usage: tradewinds import-contacts --email <user e-mail> <file.csv> [--dry-run]

Imports contacts from a CSV file (UTF-8, first line names the columns) into the workspace of the
user with that e-mail address. A row whose company and tax id match an existing contact updates it;
invalid rows are listed with their line numbers and skipped. Either every valid row is imported or,
if the file cannot be read to the end, none is.

Options:
  --email <e-mail>  The user whose workspace receives the contacts (required)
  --dry-run         Validate and report what would happen, without writing anything
  --help            Show this help

Exit code 0 when the file was imported (even with rejected rows), 1 when it could not be
(unknown user, missing or unreadable file, not a CSV file), 2 on wrong usage.
The accepted columns are listed in docs/importing-contacts.md.`;

/** How many rejected rows the summary lists in detail. */
const SHOWN_REJECTIONS = 20;

const formatCount = (n: number) => Math.round(n).toLocaleString("en-US");

/** `tradewinds import-contacts`: streams a CSV file into a user's workspace and prints the report. */
async function importContactsCommand(args: string[], env: TEnv, runtime: TRuntime): Promise<number> {
  let email: string | undefined;
  let dryRun = false;
  let file: string | undefined;
  try {
    const parsed = parseArgs({
      args,
      options: { email: { type: "string" }, "dry-run": { type: "boolean" } },
      allowPositionals: true,
    });
    email = parsed.values.email?.trim().toLowerCase();
    dryRun = Boolean(parsed.values["dry-run"]);
    if (parsed.positionals.length > 1) throw new Error("give exactly one file");
    file = parsed.positionals[0];
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${IMPORT_HELP}`);
    return 2;
  }
  if (!email || !file) {
    console.error(
      `${!email ? "--email <user e-mail> is required" : "Name the CSV file to import"}.\n\n${IMPORT_HELP}`,
    );
    return 2;
  }

  // Checked before the database is opened, so a typo in the path costs nothing.
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw Object.assign(new Error(), { code: "EISDIR" });
    accessSync(file, constants.R_OK);
    size = stat.size;
  } catch (error) {
    console.error(`Import failed: ${describeFileError(file, error)}`);
    return 1;
  }

  // New contacts are screened while the file is imported: the workers start first, and load their
  // index of the lists (and the parse worker its modules) while this thread prepares the database
  // and starts reading (decision 009).
  const parseWorker = size >= TWO_WORKERS_FROM_BYTES ? startParseWorker() : null;
  const { workers, screener } = dryRun ? { workers: [], screener: null } : startImportScreening(env, size);
  try {
    return await importWithScreener(
      env,
      runtime,
      { email, file, size, dryRun, parseWorker },
      workers,
      screener,
    );
  } finally {
    await screener?.stopWhenLoaded();
    parseWorker?.worker.terminate();
  }
}

async function importWithScreener(
  env: TEnv,
  runtime: TRuntime,
  {
    email,
    file,
    size,
    dryRun,
    parseWorker,
  }: { email: string; file: string; size: number; dryRun: boolean; parseWorker: TStartedParseWorker | null },
  workers: ScreeningWorker[],
  screener: QueryScreener | null,
): Promise<number> {
  const database = await prepareDatabase(env, runtime);
  try {
    const [user] = await database.db
      .select({ id: users.id, workspaceId: users.workspace_id })
      .from(users)
      .where(eq(users.email, email));
    if (!user) {
      console.error(
        `No user has the e-mail address "${email}". Check the spelling, or register that user first.`,
      );
      return 1;
    }
    let bytesRead = 0;
    const progress = progressReporter(size, () => bytesRead);
    async function* counted(stream: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
      for await (const bytes of stream) {
        bytesRead += bytes.byteLength;
        yield bytes;
      }
    }
    const stream = Bun.file(file).stream() as unknown as AsyncIterable<Uint8Array>;
    let screenedWhileImporting = 0;
    let report: TImportReport;
    try {
      report = await importContacts(
        database.db,
        { workspaceId: user.workspaceId, userId: user.id },
        decodeUtf8(counted(stream)),
        {
          dryRun,
          onProgress: progress.update,
          // A big file's parsing and validation leave this thread to the writes.
          parseOffThread: parseWorker ?? false,
          screening: screener
            ? {
                screener,
                threshold: env.screeningThreshold,
                onScreened: (n) => {
                  screenedWhileImporting += n;
                },
              }
            : undefined,
        },
      );
    } catch (error) {
      progress.clear();
      if (error instanceof ImportFileError) {
        console.error(`Import failed: ${error.message}`);
        return 1;
      }
      // The file vanished or became unreadable mid-way; the transaction was rolled back.
      if (/^E[A-Z]+$/.test(String((error as NodeJS.ErrnoException).code))) {
        console.error(`Import failed: ${describeFileError(file, error)}`);
        return 1;
      }
      // A database error: drizzle's message repeats the whole statement, its cause says what broke.
      const cause = (error as Error).cause instanceof Error ? ((error as Error).cause as Error) : error;
      console.error(`Import failed, nothing was imported: ${(cause as Error).message ?? String(cause)}`);
      return 1;
    }
    progress.clear();
    printReport(report, progress.seconds());
    if (screenedWhileImporting)
      console.log(`Screened ${screenedWhileImporting} new contacts while importing.`);
    // What is left: contacts the import changed, and any new one whose outcome was not had.
    if (!report.dry_run && (report.created || report.updated))
      await screenImported(database.db, env, user.workspaceId, workers.find((w) => !w.isStopped) ?? null);
    return 0;
  } finally {
    database.close();
  }
}

/** Screens the contacts an import created or changed, as saving them in the app would. */
async function screenImported(db: TDb, env: TEnv, workspaceId: number, worker: ScreeningWorker | null) {
  const logger = createLogger("warn");
  const registry = new ScreeningRegistry(db);
  // The contacts marked 'needs screening' (indexed): every one the import created, and every one
  // whose name, address or country it changed, as a save in the app would screen them.
  const ids = await pendingContactIds(db, workspaceId);
  if (!ids.length) return;
  // The worker's index holds the active lists; without a worker this thread builds its own.
  const lists = (await worker?.ready.catch(() => null)) ?? (await registry.get()).lists;
  if (!lists.length) {
    console.log("No restricted-party lists are loaded: the imported contacts were not screened.");
    return;
  }
  console.log(`Screening ${ids.length} new or changed contacts…`);
  // Nothing else is served here: big chunks, fewer commits.
  const job = new RescreenJob(
    { db, registry, threshold: env.screeningThreshold },
    logger,
    undefined,
    undefined,
    2_000,
  );
  const state = await job.run(ids, "contact import", progressLine(), { worker: worker ?? undefined });
  console.log(`Screened ${state.done}: ${state.failed} failed.`);
}

function describeFileError(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return `${file}: no such file.`;
  if (code === "EISDIR") return `${file} is a folder, not a file.`;
  if (code === "EACCES" || code === "EPERM") return `${file} cannot be read (permission denied).`;
  return `${file} cannot be read (${(error as Error).message || code}).`;
}

/**
 * Progress while importing: a bar redrawn in place on a terminal, a plain line every few seconds
 * otherwise, so logs and CI output stay readable.
 */
function progressReporter(totalBytes: number, bytesRead: () => number) {
  const isTty = Boolean(process.stdout.isTTY);
  // TRADEWINDS_PROGRESS_MS lets the tests see plain lines without importing for seconds.
  const interval = isTty ? 100 : Number(process.env.TRADEWINDS_PROGRESS_MS) || 2000;
  const started = performance.now();
  let lastShown = started;
  let isDrawn = false;
  const seconds = () => (performance.now() - started) / 1000;
  return {
    seconds,
    update(rows: number) {
      const now = performance.now();
      if (now - lastShown < interval) return;
      lastShown = now;
      const share = totalBytes ? Math.min(1, bytesRead() / totalBytes) : 1;
      const percent = `${Math.floor(share * 100)}%`;
      const rate = `${formatCount(rows / seconds())} rows/s`;
      if (!isTty) {
        console.log(`… ${formatCount(rows)} rows (${percent}), ${rate}`);
        return;
      }
      const width = 30;
      const filled = Math.round(share * width);
      const bar = "█".repeat(filled) + "░".repeat(width - filled);
      process.stdout.write(`\r${bar} ${percent.padStart(4)}  ${formatCount(rows)} rows  ${rate}\x1b[K`);
      isDrawn = true;
    },
    clear() {
      if (isDrawn) process.stdout.write("\r\x1b[K");
      isDrawn = false;
    },
  };
}

function printReport(report: TImportReport, seconds: number) {
  // A rate over a fraction of a second says nothing.
  const rate = seconds >= 0.5 ? `, ${formatCount(report.rows / seconds)} rows/s` : "";
  console.log(
    report.dry_run
      ? `Dry run completed: nothing was written. ${formatCount(report.rows)} rows checked in ${seconds.toFixed(1)} s${rate}.`
      : `Import completed: ${formatCount(report.rows)} rows in ${seconds.toFixed(1)} s${rate}.`,
  );
  const verb = report.dry_run ? "would be " : "";
  const lines: [string, number][] = [
    [`${verb}created`, report.created],
    [`${verb}updated`, report.updated],
    ["unchanged", report.unchanged],
    ["rejected", report.rejected],
  ];
  const width = Math.max(...lines.map(([, n]) => formatCount(n).length));
  for (const [label, n] of lines) console.log(`  ${formatCount(n).padStart(width)}  ${label}`);
  if (!report.rejected) return;
  console.log("\nRejected rows:");
  const shown = report.rejected_rows.slice(0, SHOWN_REJECTIONS);
  for (const row of shown) console.log(`  line ${row.line}: ${row.errors.join("; ")}`);
  if (report.rejected > shown.length)
    console.log(`  … and ${formatCount(report.rejected - shown.length)} more.`);
}
