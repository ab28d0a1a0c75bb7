import { and, eq, isNull, or, sql } from "drizzle-orm";
import { BULK_WRITE_CACHE_KIB, type TDb } from "../../../db/client";
import type { TContactValues, TImportReport, TRejectedRow } from "../../../db/contracts/contacts";
import { contacts, countries, partner_types, users } from "../../../db/schema";
import { assertParentAlive } from "../../lib/bulk-process";
import { yieldToLoop } from "../../lib/event-loop";
import type { TListVersion } from "../screening/lists.service";
import {
  contactAddress,
  recordNewScreenings,
  SCREENED_FIELDS,
  stillScreenedAs,
  type TScreenedNew,
} from "../screening/screening.service";
import type { QueryScreener, TOutcome, TQuery } from "../screening/screening-worker";
import { RowParseWorker, startParseWorker, type TStartedParseWorker } from "./contact-parse-thread";
import { foldCountryName, RowReader, type TLookups, type TParsedChunk } from "./contact-rows";

export { parseWorkerStats, startParseWorker, type TStartedParseWorker } from "./contact-parse-thread";
export {
  columnMessage,
  decodeUtf8,
  IMPORT_COLUMNS,
  ImportFileError,
  RowReader,
  type TLookups,
  type TParsedChunk,
  type TParseReply,
  type TParseRequest,
} from "./contact-rows";

export type { TImportReport, TRejectedRow };

/** How many rejected rows a report details; `rejected` still counts them all. */
export const MAX_REJECTED_DETAILS = 1000;
// Rows written per statement: each statement has a fixed cost (its compile, a statement journal,
// the trigger program), so bigger batches cost less per row (20,000 new contacts: ~8 % less main
// thread CPU at 1,000 than at 400), while the rows held stay a small part of the parse window.
const BATCH = 1_000;

const matchKey = (company: string, taxId: string) => `${company.trim().toLowerCase()}\u0000${taxId.trim()}`;

/**
 * The fields an import may change on an existing contact, compared to decide "updated" vs
 * "unchanged". Every contract field, checked by the compiler: inserts write exactly these.
 */
const COMPARED = Object.keys({
  company: 1,
  partner_type_id: 1,
  tax_id: 1,
  tax_id_type: 1,
  other_id_type: 1,
  other_id: 1,
  street: 1,
  city: 1,
  state_province: 1,
  postal_code: 1,
  country_id: 1,
  contact_1: 1,
  phone_1: 1,
  email_1: 1,
  contact_2: 1,
  phone_2: 1,
  email_2: 1,
  is_sensitive: 1,
  sensitive_note: 1,
  is_restricted: 1,
  restricted_note: 1,
} satisfies Record<keyof TContactValues, 1>) as (keyof TContactValues)[];

const INSERTED = ["workspace_id", "user_id", ...COMPARED] as const;
/** An import that screens its new contacts before writing them sets their outcome in the insert. */
const INSERTED_SCREENED = [...INSERTED, "screening_pending", "screening_outcome"] as const;

type TExisting = Pick<TContactValues, (typeof COMPARED)[number]> & { id: number };

/** A new contact written before its outcome was back: its id, its values and its screening key. */
type TDeferred = { id: number; values: TContactValues; key: string };

// Batches pass their rows as one JSON parameter. A parameter per cell would compile to a large
// statement per batch, and libsql frees statements only when the garbage collector gets to them: a
// 100,000-row file held hundreds of MB that way. These statements stay the same small size.
const columnList = (names: readonly string[]) =>
  sql.join(
    names.map((c) => sql.identifier(c)),
    sql`, `,
  );
const cellsOf = (names: readonly string[], offset = 0) =>
  sql.raw(names.map((_, i) => `j.value ->> ${i + offset}`).join(", "));

const insertStatement = (rows: unknown[][], columns: readonly string[] = INSERTED) =>
  sql`insert into ${contacts} (${columnList(columns)}) select ${cellsOf(columns)} from json_each(${JSON.stringify(rows)}) as j order by j.key`;
const returningKeys = sql` returning ${sql.identifier("id")}, ${sql.identifier("company")}, ${sql.identifier("tax_id")}`;

// Row-value assignment: (a, b) = (x, y) sets every compared column from the batch's JSON.
const updateStatement = (workspaceId: number, updatedAt: string, updatedBy: number, rows: unknown[][]) =>
  sql`update ${contacts} set (${columnList(COMPARED)}, ${sql.identifier("updated_at")}, ${sql.identifier("updated_by_user_id")}) = (${cellsOf(COMPARED, 1)}, ${updatedAt}, ${updatedBy}) from json_each(${JSON.stringify(rows)}) as j where ${contacts.id} = j.value ->> 0 and ${contacts.workspace_id} = ${workspaceId}`;

const toCell = (value: unknown) => (typeof value === "boolean" ? Number(value) : value);

/**
 * Screening while importing (the CLI and the upload's child): each valid row's query goes to the
 * screener as soon as the row is parsed, and a batch whose outcomes are back is written with them,
 * so each new contact is inserted with its outcome and recorded (result, audit row, screenings list
 * row) in the import's own transaction. A batch whose outcomes are not back (the workers load their
 * index and warm up, or fall behind) is written pending instead of waiting, and its new contacts
 * recorded in the same transaction once their outcomes are: up to WINDOW such contacts, past which
 * the import waits for the oldest. A new contact whose outcome cannot be had (a failed worker) stays
 * pending, as without screening, for the caller's screening run or the sweep.
 */
export type TImportScreening = {
  screener: QueryScreener;
  threshold: number;
  /** Called with each batch's count of new contacts screened and recorded in the import's transaction. */
  onScreened?: (contacts: number) => void;
};

/** New contacts written before their outcomes, at most, while the screening workers catch up. */
const WINDOW = 8_000;
/**
 * While the screening workers are behind, a batch of at least this many rows with their outcomes
 * back is written rather than waiting for a whole BATCH; contacts written before their outcomes
 * are recorded once at least this many of them have theirs.
 */
const FIRST_ROWS = 250;
/** The first piece of a file for the parse worker, in characters: FIRST_ROWS rows of a usual file. */
const FIRST_PIECE = 48 * 1024;

/** A report of nothing imported yet. */
export function emptyReport(dryRun = false): TImportReport {
  return {
    created: 0,
    updated: 0,
    unchanged: 0,
    rejected: 0,
    rejected_rows: [],
    rejected_rows_truncated: false,
    rows: 0,
    dry_run: dryRun,
  };
}

/**
 * Imports contacts from CSV text chunks into one workspace, in one transaction: either every valid
 * row lands or (on a bad file, a crash or kill -9) none does. Rows are validated with the same
 * contract as the form; a row matching an existing contact on company + tax id updates it, so
 * importing a file twice creates no duplicates. Memory holds one batch of rows, not the file nor
 * the workspace: each batch looks up its matches by tax id (indexed) before it is written.
 */
export async function importContacts(
  db: TDb,
  target: { workspaceId: number; userId: number },
  chunks: AsyncIterable<string> | Iterable<string>,
  options: TImportOptions = {},
): Promise<TImportReport> {
  try {
    return await importRows(db, target, chunks, options);
  } finally {
    // A worker started ahead ends with the import, also one that failed before its rows.
    if (typeof options.parseOffThread === "object") options.parseOffThread.worker.terminate();
  }
}

/** What importContacts may be told besides the file. */
type TImportOptions = {
  dryRun?: boolean;
  onProgress?: (rows: number) => void;
  /** The company names of each batch's new and changed contacts, once written (to screen them early). */
  onWritten?: (companies: string[]) => void;
  /** Screens the new contacts while importing (see TImportScreening). */
  screening?: TImportScreening;
  /**
   * Parses and validates the rows on a thread of their own (the CLI, for big files): true, or a
   * worker the caller started ahead with startParseWorker (the import then owns it).
   */
  parseOffThread?: boolean | TStartedParseWorker;
  /**
   * Commits without copying the write-ahead log into the database file (SQLite does that on the
   * commit of a big transaction): the caller checkpoints after it has reported the import done.
   * The connection keeps that setting: for a client closed after the import (the upload's child).
   */
  deferCheckpoint?: boolean;
};

/** importContacts's work (it ends a parse worker started ahead, however this ends). */
async function importRows(
  db: TDb,
  target: { workspaceId: number; userId: number },
  chunks: AsyncIterable<string> | Iterable<string>,
  options: TImportOptions,
): Promise<TImportReport> {
  const report = emptyReport(Boolean(options.dryRun));
  const lookups = await loadLookups(db, target.workspaceId);
  const screening = options.dryRun ? undefined : options.screening;
  // The lists the screener's workers screen against; null until they are ready, or if they failed or
  // have none (then nothing is screened here and new contacts stay pending, as without screening).
  let screeningLists: TListVersion[] | null = null;
  let isScreening = Boolean(screening);
  // Rows go to the workers from the first batch that creates a contact on: a re-import of an
  // unchanged file has nothing to screen, and its rows are not scored for nothing.
  let isSubmitting = false;
  screening?.screener.ready.then((lists) => {
    screeningLists = lists?.length ? lists : null;
    if (!screeningLists) isScreening = false;
  });
  const ownerEmail = screening
    ? ((await db.select({ email: users.email }).from(users).where(eq(users.id, target.userId)))[0]?.email ??
      null)
    : null;
  const queryOf = (values: TContactValues): TQuery => {
    const country = values.country_id ? lookups.countryById.get(values.country_id) : undefined;
    return [values.company, contactAddress(values as never, country?.name), country?.code];
  };

  const run = async (tx: TDb) => {
    // Valid rows not yet matched against the workspace; the parser adds a chunk's worth at a time.
    let pending: TContactValues[] = [];
    // Each pending row's screening key (when screening): its outcome is kept under it.
    const screeningKeys = new Map<TContactValues, string>();
    // A dry run writes nothing, so what its earlier batches created or changed cannot be read back
    // from the database: it is remembered here instead (only in dry runs).
    const dryRunState = new Map<string, TExisting>();
    const reject = (line: number, errors: string[]) => {
      report.rejected++;
      // The count stays exact; only the details stop, and the report says so.
      if (report.rejected_rows.length < MAX_REJECTED_DETAILS) report.rejected_rows.push({ line, errors });
      else report.rejected_rows_truncated = true;
    };

    // How many rows of each contact (company + tax id) are parsed ahead and not yet in a batch: a
    // contact the file names again is not recorded at its insert (see writeBatch).
    const aheadCount = new Map<string, number>();
    // New contacts written before their outcomes were back (while the workers load the index and
    // warm up, or fall behind), by contact: each is recorded once its outcome is back.
    const deferred = new Map<string, TDeferred>();
    const onValid = (values: TContactValues) => {
      pending.push(values);
      if (isScreening && screening) {
        const key = matchKey(values.company, values.tax_id);
        aheadCount.set(key, (aheadCount.get(key) ?? 0) + 1);
      }
      if (isSubmitting && isScreening && screening)
        screeningKeys.set(values, screening.screener.submit(queryOf(values)));
    };
    const onRow = () => {
      report.rows++;
      if (report.rows % 1000 === 0) options.onProgress?.(report.rows);
    };

    const screenedNew = (id: number, values: TContactValues, outcome: TOutcome): TScreenedNew => {
      const country = values.country_id ? lookups.countryById.get(values.country_id) : undefined;
      return {
        item: {
          contact: {
            id,
            workspace_id: target.workspaceId,
            company: values.company,
            street: values.street ?? null,
            city: values.city ?? null,
            state_province: values.state_province ?? null,
            postal_code: values.postal_code ?? null,
            country_id: values.country_id ?? null,
          },
          // System screenings name the contact's owner, as the screening after an import does.
          actor: { workspaceId: target.workspaceId, userId: null, userEmail: ownerEmail },
          country: country ? { name: country.name, code_iso_2: country.code } : undefined,
        },
        outcome,
      };
    };

    const oldestDeferredKeys = () => {
      const keys: string[] = [];
      for (const { key } of deferred.values()) {
        keys.push(key);
        if (keys.length === FIRST_ROWS) break;
      }
      return keys;
    };

    /**
     * Records the deferred contacts whose outcomes are back, once there are at least FIRST_ROWS of
     * them (with `all`: every one, waiting for the workers); true if it recorded any. Each gets its
     * outcome and loses its pending mark, then a result, an audit row and a screenings list row:
     * what it would have had, written with its outcome. A contact a row parsed ahead names again
     * waits until that row is written (it may change what is screened: see writeBatch). A contact
     * whose outcome cannot be had (a failed worker) stays pending, for the caller's screening run
     * or the sweep.
     */
    const recordDeferred = async (all: boolean): Promise<boolean> => {
      if (!deferred.size || !screening) return false;
      if (all) {
        await screening.screener.whenKnown([...deferred.values()].map((d) => d.key));
        await screening.screener.ready;
      }
      const lists = isScreening ? screeningLists : null;
      if (!lists) return false;
      const known: TDeferred[] = [];
      for (const [contact, entry] of deferred) {
        if (!aheadCount.has(contact) && screening.screener.outcome(entry.key)) known.push(entry);
      }
      if (!known.length || (!all && known.length < FIRST_ROWS)) return false;
      for (let at = 0; at < known.length; at += BATCH) {
        const slice = known.slice(at, at + BATCH);
        for (const { values } of slice) deferred.delete(matchKey(values.company, values.tax_id));
        // Only where the contact still holds what was screened (as a screening after the import
        // checks too): otherwise it stays pending, to be screened as it is. (Each by its id, which
        // this import created: a workspace condition let the planner walk the workspace's contacts
        // for every row instead, 54 s instead of 4 s for 20,000.)
        const updated = await tx.all<{ id: number }>(
          sql`update ${contacts} set screening_pending = 0, screening_outcome = j.value ->> 1 from json_each(${JSON.stringify(
            slice.map(({ id, values, key }) => [
              id,
              screening.screener.outcome(key)?.status,
              ...SCREENED_FIELDS.map((f) => values[f] ?? null),
            ]),
          )}) as j where ${contacts.id} = j.value ->> 0 and ${stillScreenedAs(2)} returning ${contacts.id}`,
        );
        const isUpdated = new Set(updated.map((row) => row.id));
        const screened = slice
          .filter(({ id }) => isUpdated.has(id))
          .map(({ id, values, key }) => screenedNew(id, values, screening.screener.outcome(key) as TOutcome));
        await recordNewScreenings(tx, screening.threshold, screened, lists);
        screening.onScreened?.(screened.length);
        await yieldToLoop();
      }
      return true;
    };

    /**
     * Matches one batch against the workspace (and earlier rows of the file), then writes it. With
     * `mayDefer`, new contacts whose outcomes are not back are written pending instead of waiting,
     * and recorded by recordDeferred once their outcomes are.
     */
    const writeBatch = async (batch: TContactValues[], mayDefer: boolean) => {
      const found = await loadMatches(tx, target.workspaceId, batch);
      if (options.dryRun) {
        for (const values of batch) {
          const key = matchKey(values.company, values.tax_id);
          const earlier = dryRunState.get(key);
          if (earlier) found.set(key, earlier);
        }
      }
      const inserts: TContactValues[] = [];
      // Contacts to update; applied after the batch's inserts, so a row created earlier in the
      // batch has its id by then.
      const updates = new Set<TExisting>();
      for (const values of batch) {
        const key = matchKey(values.company, values.tax_id);
        const entry = found.get(key);
        if (!entry) {
          const created = { ...pick(values), id: 0 };
          found.set(key, created);
          if (options.dryRun) dryRunState.set(key, created);
          inserts.push(values);
          report.created++;
          continue;
        }
        if (COMPARED.every((f) => entry[f] === values[f])) {
          report.unchanged++;
          continue;
        }
        // Written before its outcome was back, and now changed where screening looks (the fields of
        // the database's pending trigger): screened as it ends up, after the import.
        if (SCREENED_FIELDS.some((f) => entry[f] !== values[f])) deferred.delete(key);
        Object.assign(entry, pick(values));
        report.updated++;
        if (options.dryRun) dryRunState.set(key, entry);
        else updates.add(entry);
      }
      if (options.dryRun) return;
      if (inserts.length && isScreening && screening && !isSubmitting) {
        // The first new contact: from now on every parsed row goes to the workers, starting with
        // this batch and the rows parsed ahead of it.
        isSubmitting = true;
        for (const values of [...batch, ...pending])
          screeningKeys.set(values, screening.screener.submit(queryOf(values)));
      }
      let isDeferring = false;
      if (inserts.length && isScreening && screening) {
        const keys: string[] = [];
        for (const values of inserts) {
          const key = screeningKeys.get(values);
          if (key !== undefined) keys.push(key);
        }
        if (!screeningLists || !screening.screener.isKnown(keys)) {
          if (mayDefer) isDeferring = true;
          else await screening.screener.whenKnown(keys);
        }
      }
      const lists = isScreening ? screeningLists : null;
      if (inserts.length && screening && (lists || isDeferring)) {
        // Each new contact is written with its outcome and recorded in this same transaction, unless
        // a later row of the file changes it (in this batch, or parsed ahead): it is then written
        // pending and screened once, as it ends up, by the run after the import. (A repeat further
        // ahead than the parsed rows finds it recorded, and re-screens it as any change would.)
        const changedLater = new Set<string>();
        for (const entry of updates)
          if (entry.id === 0) changedLater.add(matchKey(entry.company, entry.tax_id));
        const toDefer = new Map<TContactValues, string>();
        const outcomes = inserts.map((values) => {
          const contact = matchKey(values.company, values.tax_id);
          if (changedLater.has(contact) || aheadCount.has(contact)) return undefined;
          const key = screeningKeys.get(values);
          if (key === undefined) return undefined;
          const outcome = lists ? screening.screener.outcome(key) : undefined;
          if (!outcome && isDeferring) toDefer.set(values, key);
          return outcome;
        });
        const rows = inserts.map((values, i) => [
          target.workspaceId,
          target.userId,
          ...COMPARED.map((f) => toCell(values[f])),
          outcomes[i] ? 0 : 1,
          outcomes[i]?.status ?? null,
        ]);
        const ids = await tx.all<{ id: number; company: string; tax_id: string }>(
          sql`${insertStatement(rows, INSERTED_SCREENED)}${returningKeys}`,
        );
        const idOf = new Map<string, number>();
        for (const row of ids) {
          idOf.set(matchKey(row.company, row.tax_id), row.id);
          const entry = found.get(matchKey(row.company, row.tax_id));
          if (entry) entry.id = row.id;
        }
        const screened: TScreenedNew[] = [];
        inserts.forEach((values, i) => {
          const outcome = outcomes[i];
          const contact = matchKey(values.company, values.tax_id);
          const id = idOf.get(contact);
          if (id === undefined) return;
          const key = toDefer.get(values);
          if (key !== undefined) {
            deferred.set(contact, { id, values, key });
            deferralStats.contacts++;
          } else if (outcome) screened.push(screenedNew(id, values, outcome));
        });
        if (screened.length && lists) {
          await recordNewScreenings(tx, screening.threshold, screened, lists);
          screening.onScreened?.(screened.length);
        }
      } else if (inserts.length) {
        const rows = inserts.map((values) => [
          target.workspaceId,
          target.userId,
          ...COMPARED.map((f) => toCell(values[f])),
        ]);
        // The new ids are only needed when a later row of the batch changes a contact it created.
        if ([...updates].some((entry) => entry.id === 0)) {
          const ids = await tx.all<{ id: number; company: string; tax_id: string }>(
            sql`${insertStatement(rows)}${returningKeys}`,
          );
          for (const row of ids) {
            const entry = found.get(matchKey(row.company, row.tax_id));
            if (entry) entry.id = row.id;
          }
        } else {
          await tx.run(insertStatement(rows));
        }
      }
      if (updates.size) {
        const rows = [...updates].map((entry) => [entry.id, ...COMPARED.map((f) => toCell(entry[f]))]);
        await tx.run(updateStatement(target.workspaceId, new Date().toISOString(), target.userId, rows));
      }
      if (options.onWritten && (inserts.length || updates.size))
        options.onWritten([...inserts, ...updates].map((values) => values.company));
    };

    let isFirstBatch = true;
    /** How many rows from the start of the next batch have their outcome back (or need none). */
    const knownPrefix = (screener: QueryScreener) => {
      let n = 0;
      for (; n < BATCH && n < pending.length; n++) {
        const key = screeningKeys.get(pending[n] as TContactValues);
        if (key !== undefined && screener.outcome(key) === undefined) break;
      }
      return n;
    };

    const drain = async (all: boolean) => {
      while (
        pending.length >= (isFirstBatch && isScreening ? FIRST_ROWS : BATCH) ||
        (all && pending.length)
      ) {
        await recordDeferred(false);
        // The first batch is small: if it creates a contact, every row starts going to the workers
        // then, and it is written without waiting for them (they are still loading the index).
        let size = isFirstBatch && isScreening && screening ? FIRST_ROWS : BATCH;
        isFirstBatch = false;
        let mayDefer = !isSubmitting;
        if (isSubmitting && screening) {
          // A batch is written with its rows' outcomes when they are back.
          const keys: string[] = [];
          for (let i = 0; i < BATCH && i < pending.length; i++) {
            const key = screeningKeys.get(pending[i] as TContactValues);
            if (key !== undefined) keys.push(key);
          }
          if (!screening.screener.isKnown(keys)) {
            // The workers are behind (above all at the start, while they load the index and warm
            // up): the rows whose outcomes are back are written as a smaller batch; with fewer than
            // that back, the batch is written without them, its new contacts recorded once they are
            // back, rather than leaving this thread idle (an import's first outcomes came ~0.7 s
            // after its transaction began). Past WINDOW such contacts, it waits for the oldest.
            const known = knownPrefix(screening.screener);
            if (known >= FIRST_ROWS) size = known;
            else if (deferred.size < WINDOW) mayDefer = true;
            // Past the window: the oldest outcomes, recorded, make room. If nothing could be
            // recorded (the lists not known yet, or rows ahead name those contacts again), the
            // batch is written with its outcomes, waiting for them, as without deferring.
            else if (
              (await screening.screener.whenKnown(oldestDeferredKeys())) &&
              (await recordDeferred(false))
            )
              continue;
          }
          if (!screeningLists && !mayDefer) await screening.screener.ready;
          // The rows queued for the workers go now: nothing else waits for them while deferring.
          if (mayDefer) screening.screener.flush();
        }
        const batch = pending.slice(0, size);
        pending = pending.slice(size);
        if (isScreening && screening) {
          for (const values of batch) {
            const key = matchKey(values.company, values.tax_id);
            const left = (aheadCount.get(key) ?? 1) - 1;
            if (left > 0) aheadCount.set(key, left);
            else aheadCount.delete(key);
          }
        }
        await writeBatch(batch, mayDefer);
        for (const values of batch) screeningKeys.delete(values);
        // libsql's calls settle as microtasks, so without this a whole import would run without
        // ever letting another request in: a 100,000-row file froze the server for seconds.
        await yieldToLoop();
      }
    };

    const started = options.parseOffThread;
    const parseWorker = started
      ? await RowParseWorker.start(lookups, started === true ? startParseWorker() : started)
      : null;
    if (parseWorker) {
      // Parsing and validating on a thread of its own: this one only matches and writes. One chunk
      // is parsed there while this thread writes the rows of the one before.
      const apply = (parsed: TParsedChunk) => {
        for (let i = 0; i < parsed.rows; i++) onRow();
        for (const [line, errors] of parsed.rejected) reject(line, errors);
        for (const values of parsed.valid) onValid(values);
      };
      try {
        let inFlight = 0;
        let isFirstChunk = true;
        for await (const chunk of chunks) {
          // The worker parses its first rows cold (~0.1 ms each) while this thread has nothing to
          // write: a small first piece, cut after a line, brings the first batch sooner.
          const cut = isFirstChunk ? chunk.lastIndexOf("\n", FIRST_PIECE) + 1 : 0;
          const pieces = cut > 0 && cut < chunk.length ? [chunk.slice(0, cut), chunk.slice(cut)] : [chunk];
          isFirstChunk = false;
          for (const piece of pieces) {
            parseWorker.push(piece);
            if (++inFlight > 1) {
              apply(await parseWorker.next());
              inFlight--;
              await drain(false);
            }
          }
        }
        parseWorker.end();
        for (;;) {
          const parsed = await parseWorker.next();
          apply(parsed);
          await drain(false);
          if (parsed.isLast) break;
        }
      } finally {
        parseWorker.stop();
      }
    } else {
      const reader = new RowReader(lookups, { onRow, onValid, onReject: reject });
      for await (const chunk of chunks) {
        reader.push(chunk);
        await drain(false);
      }
      reader.end();
    }
    await drain(true);
    await recordDeferred(true);
    options.onProgress?.(report.rows);
  };

  if (options.dryRun) await run(db);
  else
    await db.transaction(async (tx) => {
      // A large page cache for this connection keeps the contacts' indexes and trigram index in
      // memory while a big file grows them: with the default 2,000 pages every batch read and wrote
      // pages back through the WAL, and a 100,000-row import spent most of its time there.
      await tx.run(sql.raw(`PRAGMA cache_size = -${BULK_WRITE_CACHE_KIB}`));
      if (options.deferCheckpoint) await tx.run(sql.raw("PRAGMA wal_autocheckpoint = 0"));
      await run(tx as unknown as TDb);
      // A bulk child whose parent has gone rolls back here instead of committing.
      assertParentAlive();
    });
  return report;
}

/** New contacts written before their outcomes were back, then recorded (the tests check it happens). */
export const deferralStats = { contacts: 0 };

function pick(values: TContactValues): Omit<TExisting, "id"> {
  const picked: Record<string, unknown> = {};
  for (const f of COMPARED) picked[f] = values[f];
  return picked as Omit<TExisting, "id">;
}

/**
 * The workspace's contacts matching a batch's rows on company + tax id, by key. Where several
 * share a key, the newest wins.
 */
async function loadMatches(db: TDb, workspaceId: number, batch: TContactValues[]) {
  const taxIds = [...new Set(batch.map((values) => values.tax_id))];
  const rows = await db
    .select({ id: contacts.id, ...Object.fromEntries(COMPARED.map((f) => [f, contacts[f]])) })
    .from(contacts)
    .where(
      and(
        eq(contacts.workspace_id, workspaceId),
        sql`${contacts.tax_id} in (select value from json_each(${JSON.stringify(taxIds)}))`,
      ),
    )
    .orderBy(contacts.id);
  const map = new Map<string, TExisting>();
  for (const row of rows as unknown as TExisting[]) map.set(matchKey(row.company, row.tax_id), row);
  return map;
}

/** The languages whose country names an import understands ("Deutschland", "Allemagne", "Tyskland"). */
const COUNTRY_NAME_LANGUAGES = ["en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "nb", "fi", "pl", "cs"];
const countryNames = new Map<string, string[]>();
let displayNames: Intl.DisplayNames[] | null = null;

/** A country's names (lower case, and folded) in the common languages, from the runtime's ICU data. */
function countryNamesOf(code: string): string[] {
  const known = countryNames.get(code);
  if (known) return known;
  const names = new Set<string>();
  // One formatter per language for all the countries: making one costs about a millisecond.
  displayNames ??= COUNTRY_NAME_LANGUAGES.map(
    (language) => new Intl.DisplayNames([language], { type: "region", fallback: "none" }),
  );
  for (const display of displayNames) {
    try {
      const name = display.of(code);
      if (name) {
        names.add(name.toLowerCase());
        names.add(foldCountryName(name));
      }
    } catch {
      // Not a region code ICU knows (e.g. XK in older data): the reference name still matches.
    }
  }
  const list = [...names];
  countryNames.set(code, list);
  return list;
}

export async function loadLookups(db: TDb, workspaceId: number): Promise<TLookups> {
  const [countryRows, typeRows] = await Promise.all([
    db.select({ id: countries.id, name: countries.name, code: countries.code_iso_2 }).from(countries),
    db
      .select({ id: partner_types.id, name: partner_types.partner_type })
      .from(partner_types)
      .where(or(isNull(partner_types.workspace_id), eq(partner_types.workspace_id, workspaceId))),
  ]);
  const countryMap = new Map<string, number>();
  for (const c of countryRows) {
    // The names in the common languages first, so the reference data's own name and code win.
    for (const name of countryNamesOf(c.code)) countryMap.set(name, c.id);
    countryMap.set(c.name.toLowerCase(), c.id);
    countryMap.set(foldCountryName(c.name), c.id);
    countryMap.set(c.code.toLowerCase(), c.id);
  }
  // Common names that differ from the ISO short names in the reference data.
  for (const [alias, code] of [
    ["usa", "us"],
    ["united states of america", "us"],
    ["uk", "gb"],
    ["great britain", "gb"],
  ]) {
    const id = countryMap.get(code);
    if (id) countryMap.set(alias, id);
  }
  return {
    countries: countryMap,
    countryById: new Map(countryRows.map((c) => [c.id, { name: c.name, code: c.code }])),
    partnerTypes: new Map(typeRows.map((t) => [t.name.toLowerCase(), t.id])),
    partnerTypeIds: new Set(typeRows.map((t) => t.id)),
  };
}
