import { and, eq, isNull, or, sql } from "drizzle-orm";
import { BULK_WRITE_CACHE_KIB, type TDb } from "../../../db/client";
import {
  type TContactValues,
  type TImportReport,
  type TRejectedRow,
  ZContactInput,
} from "../../../db/contracts/contacts";
import { contacts, countries, partner_types, users } from "../../../db/schema";
import { CsvParser } from "../../lib/csv";
import { yieldToLoop } from "../../lib/limits";
import { toFieldErrors } from "../../lib/validate";
import type { TListVersion } from "../screening/lists.service";
import { contactAddress, recordNewScreenings, type TScreenedNew } from "../screening/screening.service";
import type { QueryScreener, TQuery } from "../screening/screening-worker";

/** Every column the importer understands, with the header names people actually use for it. */
export const IMPORT_COLUMNS: Record<string, string[]> = {
  company: ["company", "company name", "name", "organisation", "organization", "business name"],
  partner_type: ["partner type", "partner_type", "partner type id", "partner_type_id", "type", "partner"],
  tax_id: ["tax id", "tax_id", "taxid", "vat", "vat number", "vat id", "ein", "tax number", "tin"],
  street: ["street", "address", "address 1", "address line 1", "street address"],
  city: ["city", "town"],
  state_province: ["state province", "state_province", "state", "province", "region", "state/province"],
  postal_code: ["postal code", "postal_code", "zip", "zip code", "postcode", "post code"],
  country: ["country", "country code", "country name", "country_id", "iso country", "country iso"],
  contact_1: ["contact 1", "contact_1", "contact", "contact name", "contact person"],
  phone_1: ["phone 1", "phone_1", "phone", "telephone", "tel"],
  email_1: ["email 1", "email_1", "email", "e-mail", "e mail", "mail"],
  contact_2: ["contact 2", "contact_2", "second contact"],
  phone_2: ["phone 2", "phone_2", "second phone"],
  email_2: ["email 2", "email_2", "e-mail 2", "second email"],
  is_sensitive: ["is sensitive", "is_sensitive", "sensitive"],
  sensitive_note: ["sensitive note", "sensitive_note"],
  is_restricted: ["is restricted", "is_restricted", "restricted"],
  restricted_note: ["restricted note", "restricted_note"],
};

/** How a column is named in messages when the file has no header for it (e.g. a note required by a flag). */
const COLUMN_LABELS: Record<string, string> = {
  company: "Company",
  partner_type: "Partner type",
  tax_id: "Tax ID",
  street: "Street",
  city: "City",
  state_province: "State / Province",
  postal_code: "Postal code",
  country: "Country",
  contact_1: "Contact 1",
  phone_1: "Phone 1",
  email_1: "E-mail 1",
  contact_2: "Contact 2",
  phone_2: "Phone 2",
  email_2: "E-mail 2",
  is_sensitive: "Sensitive",
  sensitive_note: "Sensitive note",
  is_restricted: "Restricted",
  restricted_note: "Restricted note",
};

/** The importer's column for a contract field (the two looked-up ones differ). */
const IMPORT_FIELD_OF: Record<string, string> = { partner_type_id: "partner_type", country_id: "country" };

/**
 * A rejected row's reason in the file's own words: the column as its header names it ('Partner type:
 * unknown partner type "Alien"'), not the contract's field id (`partner_type_id: …`).
 */
export function columnMessage(headers: ReadonlyMap<string, string>, field: string, message: string): string {
  const column = IMPORT_FIELD_OF[field] ?? field;
  const name = headers.get(column) ?? COLUMN_LABELS[column] ?? field;
  return `${name}: ${message}`;
}

/** Columns a file must have: the contract's required fields. */
const REQUIRED_COLUMNS = ["company", "partner_type", "tax_id", "contact_1", "phone_1", "email_1"];

/** The file cannot be imported at all (as opposed to single rows being rejected). */
export class ImportFileError extends Error {}

export type { TImportReport, TRejectedRow };

/** How many rejected rows a report details; `rejected` still counts them all. */
export const MAX_REJECTED_DETAILS = 1000;
const BATCH = 400;

const normalizeHeader = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s_\-./]+/g, " ")
    .trim();

const HEADER_LOOKUP = new Map<string, string>();
for (const [field, names] of Object.entries(IMPORT_COLUMNS)) {
  for (const name of names) HEADER_LOOKUP.set(normalizeHeader(name), field);
}

const TRUE_WORDS = new Set(["1", "true", "yes", "y", "x"]);
const FALSE_WORDS = new Set(["", "0", "false", "no", "n"]);

const matchKey = (company: string, taxId: string) => `${company.trim().toLowerCase()}\u0000${taxId.trim()}`;

/**
 * The fields an import may change on an existing contact, compared to decide "updated" vs
 * "unchanged". Every contract field, checked by the compiler: inserts write exactly these.
 */
const COMPARED = Object.keys({
  company: 1,
  partner_type_id: 1,
  tax_id: 1,
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
const updateStatement = (workspaceId: number, updatedAt: string, rows: unknown[][]) =>
  sql`update ${contacts} set (${columnList(COMPARED)}, ${sql.identifier("updated_at")}) = (${cellsOf(COMPARED, 1)}, ${updatedAt}) from json_each(${JSON.stringify(rows)}) as j where ${contacts.id} = j.value ->> 0 and ${contacts.workspace_id} = ${workspaceId}`;

const toCell = (value: unknown) => (typeof value === "boolean" ? Number(value) : value);

/**
 * Screening while importing (the CLI): each valid row's query goes to the screener as soon as the
 * row is parsed, and a batch is written once its outcomes are back, so each new contact is inserted
 * with its outcome and recorded (result, audit row, screenings list row) in the import's own
 * transaction. The parser runs ahead of the writes by up to WINDOW rows to give the workers time;
 * past that the import waits for them. A new contact whose outcome cannot be had (a failed worker)
 * is inserted pending, as without screening, for the caller's screening run or the sweep.
 */
export type TImportScreening = {
  screener: QueryScreener;
  threshold: number;
  /** Called with each batch's count of new contacts screened and recorded in the import's transaction. */
  onScreened?: (contacts: number) => void;
};

/** Rows parsed ahead of the writes while the screening workers catch up. */
const WINDOW = 8_000;

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
  options: {
    dryRun?: boolean;
    onProgress?: (rows: number) => void;
    /** The company names of each batch's new and changed contacts, once written (to screen them early). */
    onWritten?: (companies: string[]) => void;
    /** Screens the new contacts while importing (see TImportScreening). */
    screening?: TImportScreening;
    /** Parses and validates the rows on a thread of their own (the CLI, for big files). */
    parseOffThread?: boolean;
  } = {},
): Promise<TImportReport> {
  const report: TImportReport = {
    created: 0,
    updated: 0,
    unchanged: 0,
    rejected: 0,
    rejected_rows: [],
    rejected_rows_truncated: false,
    rows: 0,
    dry_run: Boolean(options.dryRun),
  };
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

    const onValid = (values: TContactValues) => {
      pending.push(values);
      if (isSubmitting && isScreening && screening)
        screeningKeys.set(values, screening.screener.submit(queryOf(values)));
    };
    const onRow = () => {
      report.rows++;
      if (report.rows % 1000 === 0) options.onProgress?.(report.rows);
    };

    /** Matches one batch against the workspace (and earlier rows of the file), then writes it. */
    const writeBatch = async (batch: TContactValues[]) => {
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
      if (inserts.length && isScreening && screening) {
        const keys: string[] = [];
        for (const values of inserts) {
          const key = screeningKeys.get(values);
          if (key !== undefined) keys.push(key);
        }
        if (!screening.screener.isKnown(keys)) await screening.screener.whenKnown(keys);
      }
      const lists = isScreening ? screeningLists : null;
      if (inserts.length && lists && screening) {
        // Each new contact is written with its outcome and recorded in this same transaction.
        const outcomes = inserts.map((values) => {
          const key = screeningKeys.get(values);
          return key === undefined ? undefined : screening.screener.outcome(key);
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
          const id = idOf.get(matchKey(values.company, values.tax_id));
          if (!outcome || id === undefined) return;
          const country = values.country_id ? lookups.countryById.get(values.country_id) : undefined;
          screened.push({
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
          });
        });
        await recordNewScreenings(tx, screening.threshold, screened, lists);
        screening.onScreened?.(screened.length);
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
        await tx.run(updateStatement(target.workspaceId, new Date().toISOString(), rows));
      }
      if (options.onWritten && (inserts.length || updates.size))
        options.onWritten([...inserts, ...updates].map((values) => values.company));
    };

    const drain = async (all: boolean) => {
      while (pending.length >= BATCH || (all && pending.length)) {
        if (isSubmitting && screening) {
          // A batch is written once its rows' outcomes are back; until then the parser reads on, up
          // to WINDOW rows ahead, and past that (or at the end of the file) the import waits.
          const keys: string[] = [];
          for (let i = 0; i < BATCH && i < pending.length; i++) {
            const key = screeningKeys.get(pending[i] as TContactValues);
            if (key !== undefined) keys.push(key);
          }
          // Past the window the batch is written: it waits for its NEW contacts' outcomes only (an
          // unchanged or updated row needs none), so a re-import never waits for the workers.
          if (!screening.screener.isKnown(keys) && !all && pending.length < WINDOW) return;
          if (!screeningLists) await screening.screener.ready;
        }
        const batch = pending.slice(0, BATCH);
        pending = pending.slice(BATCH);
        await writeBatch(batch);
        for (const values of batch) screeningKeys.delete(values);
        // libsql's calls settle as microtasks, so without this a whole import would run without
        // ever letting another request in: a 100,000-row file froze the server for seconds.
        await yieldToLoop();
      }
    };

    const parseWorker = options.parseOffThread ? RowParseWorker.start(lookups) : null;
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
        for await (const chunk of chunks) {
          parseWorker.push(chunk);
          if (++inFlight > 1) {
            apply(await parseWorker.next());
            inFlight--;
            await drain(false);
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
    options.onProgress?.(report.rows);
  };

  if (options.dryRun) await run(db);
  else
    await db.transaction(async (tx) => {
      // A large page cache for this connection keeps the contacts' indexes and trigram index in
      // memory while a big file grows them: with the default 2,000 pages every batch read and wrote
      // pages back through the WAL, and a 100,000-row import spent most of its time there.
      await tx.run(sql.raw(`PRAGMA cache_size = -${BULK_WRITE_CACHE_KIB}`));
      await run(tx as unknown as TDb);
    });
  return report;
}

/**
 * Reads CSV text chunks into validated rows: the header maps the columns, each row is validated with
 * the form's contract, and a row that fails is rejected with its reasons in the file's own words.
 */
export class RowReader {
  private columns: (string | undefined)[] | null = null;
  /** Each field's header as the file writes it, for the rejected rows' reasons. */
  private readonly headers = new Map<string, string>();
  private readonly parser = new CsvParser((cells, line) => this.record(cells, line));

  constructor(
    private readonly lookups: TLookups,
    private readonly on: {
      onRow: () => void;
      onValid: (values: TContactValues) => void;
      onReject: (line: number, errors: string[]) => void;
    },
  ) {}

  push(chunk: string): void {
    if (chunk.includes("\u0000"))
      throw new ImportFileError("The file is not a CSV text file (it holds binary data).");
    try {
      this.parser.push(chunk);
    } catch (error) {
      if (error instanceof ImportFileError) throw error;
      throw new ImportFileError(String((error as Error).message));
    }
  }

  end(): void {
    try {
      this.parser.end();
    } catch (error) {
      if (error instanceof ImportFileError) throw error;
      throw new ImportFileError(`The file is not valid CSV: ${(error as Error).message}`);
    }
    if (!this.columns) throw new ImportFileError("The file is empty.");
  }

  private record(cells: string[], line: number): void {
    const { columns, headers } = this;
    if (!columns) {
      this.columns = mapHeader(cells);
      this.columns.forEach((field, i) => {
        if (field && !headers.has(field)) headers.set(field, cells[i].trim());
      });
      return;
    }
    this.on.onRow();
    const raw: Record<string, string> = {};
    for (let i = 0; i < columns.length; i++) {
      const field = columns[i];
      if (field && cells[i] !== undefined) raw[field] = cells[i];
    }
    const { input, errors } = toInput(raw, this.lookups);
    const parsed = ZContactInput.safeParse(input);
    if (!parsed.success || errors.length) {
      const fieldErrors = parsed.success ? {} : toFieldErrors(parsed.error);
      this.on.onReject(line, [
        ...errors.map(([f, m]) => columnMessage(headers, f, m)),
        ...Object.entries(fieldErrors).map(([f, m]) => columnMessage(headers, f, m.join(" "))),
      ]);
      return;
    }
    this.on.onValid(parsed.data);
  }
}

/** What the parse worker read from one chunk (the last one also holds what end() flushed). */
export type TParsedChunk = {
  rows: number;
  valid: TContactValues[];
  rejected: [line: number, errors: string[]][];
  isLast: boolean;
};

export type TParseRequest =
  | { type: "init"; lookups: TLookups }
  | { type: "chunk"; text: string }
  | { type: "end" };
export type TParseReply =
  | ({ type: "parsed" } & TParsedChunk)
  | { type: "error"; message: string; isFileError: boolean };

/** How many parse workers this process started (the tests check the worker really parsed). */
export const parseWorkerStats = { started: 0 };

/** The main thread's side of contact-parse.worker.ts: chunks in, parsed chunks out, in order. */
class RowParseWorker {
  private readonly replies: TParseReply[] = [];
  private waiter: ((reply: TParseReply) => void) | null = null;

  private constructor(private readonly worker: Worker) {
    worker.onmessage = (event: MessageEvent<TParseReply>) => this.receive(event.data);
    worker.onerror = (event) =>
      this.receive({
        type: "error",
        message: event.message || "the parse worker stopped",
        isFileError: false,
      });
  }

  /** A worker, or null when none can start (the caller parses on its own thread). */
  static start(lookups: TLookups): RowParseWorker | null {
    try {
      const worker = new Worker(new URL("./contact-parse.worker.ts", import.meta.url).href);
      worker.postMessage({ type: "init", lookups } satisfies TParseRequest);
      parseWorkerStats.started++;
      return new RowParseWorker(worker);
    } catch {
      return null;
    }
  }

  private receive(reply: TParseReply) {
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = null;
      waiter(reply);
    } else this.replies.push(reply);
  }

  push(text: string): void {
    this.worker.postMessage({ type: "chunk", text } satisfies TParseRequest);
  }

  end(): void {
    this.worker.postMessage({ type: "end" } satisfies TParseRequest);
  }

  /** The next chunk's rows; a file the parser refuses throws ImportFileError, as on this thread. */
  async next(): Promise<TParsedChunk> {
    const reply =
      this.replies.shift() ?? (await new Promise<TParseReply>((resolve) => (this.waiter = resolve)));
    if (reply.type === "error")
      throw reply.isFileError ? new ImportFileError(reply.message) : new Error(reply.message);
    return reply;
  }

  stop(): void {
    this.worker.terminate();
  }
}

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

/** Maps the header row to contract fields; a file missing a required column is refused whole. */
function mapHeader(cells: string[]): (string | undefined)[] {
  const columns = cells.map((cell) => HEADER_LOOKUP.get(normalizeHeader(cell)));
  const missing = REQUIRED_COLUMNS.filter((field) => !columns.includes(field));
  if (missing.length) {
    const names = missing.map((f) => IMPORT_COLUMNS[f][0]).join(", ");
    throw new ImportFileError(
      `The file has no column for: ${names}. The first line must name the columns (see the README's list).`,
    );
  }
  return columns;
}

export type TLookups = {
  countries: Map<string, number>;
  countryById: Map<number, { name: string; code: string }>;
  partnerTypes: Map<string, number>;
  partnerTypeIds: Set<number>;
};

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
    countryMap.set(c.name.toLowerCase(), c.id);
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

/** Turns a row's text cells into the contract's input: names to ids, yes/no to flags. */
function toInput(
  raw: Record<string, string>,
  lookups: TLookups,
): { input: Record<string, unknown>; errors: [field: string, message: string][] } {
  const errors: [string, string][] = [];
  // Copied without the two looked-up cells rather than spread then deleted: deleting turns the
  // object into a slow dictionary for the contract's checks, which run on every row.
  const input: Record<string, unknown> = {};
  for (const key in raw) if (key !== "partner_type" && key !== "country") input[key] = raw[key];

  const type = (raw.partner_type ?? "").trim();
  if (type) {
    const byName = lookups.partnerTypes.get(type.toLowerCase());
    const byId = /^\d+$/.test(type) && lookups.partnerTypeIds.has(Number(type)) ? Number(type) : undefined;
    input.partner_type_id = byName ?? byId;
    if (input.partner_type_id === undefined) errors.push(["partner_type", `unknown partner type "${type}".`]);
  }
  const country = (raw.country ?? "").trim();
  if (country) {
    input.country_id = lookups.countries.get(country.toLowerCase());
    if (input.country_id === undefined) errors.push(["country", `unknown country "${country}".`]);
  }
  for (const field of ["is_sensitive", "is_restricted"] as const) {
    if (raw[field] === undefined) continue;
    const word = raw[field].trim().toLowerCase();
    if (TRUE_WORDS.has(word)) input[field] = true;
    else if (FALSE_WORDS.has(word)) input[field] = false;
    else errors.push([field, `"${raw[field]}" is not yes/no, true/false or 1/0.`]);
  }
  return { input, errors };
}

/** Decodes bytes as UTF-8 text chunks, refusing what is not text. */
export async function* decodeUtf8(stream: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    for await (const bytes of stream) yield decoder.decode(bytes, { stream: true });
    yield decoder.decode();
  } catch (error) {
    if (error instanceof TypeError)
      throw new ImportFileError("The file is not UTF-8 text; save it as CSV UTF-8.");
    throw error;
  }
}
