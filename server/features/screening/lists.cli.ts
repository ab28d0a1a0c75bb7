import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { TDb } from "../../../db/client";
import type { TLogger } from "../../lib/logger";
import {
  detectFormat,
  explainChange,
  LIST_SOURCES,
  listHistory,
  parseListFiles,
  ScreeningRegistry,
  storeList,
  type TListFormat,
} from "./lists.service";
import { allContactIds, RescreenJob, type TRescreenState } from "./rescreen";
import { ScreeningWorker } from "./screening-worker";

export const LISTS_HELP = `Usage:
  tradewinds screening-lists import <file> [<file> …] [--format csl|ofac-sdn|dpl]
  tradewinds screening-lists status

import   Loads a newer version of a restricted-party list, replacing that list's entries at once,
         then screens every contact of every workspace again and flags the changed outcomes.
         Formats: the trade.gov CSL consolidated.csv (csl), OFAC's sdn.csv with its alt.csv and
         add.csv, or the SDN JSON (ofac-sdn), the BIS Denied Persons List text file (dpl). The
         format is guessed from the file name and content when --format is not given.
         A malformed file is refused with the line at fault and the loaded lists stay as they are.
status   Lists the loaded lists: source, publication date, rows, checksum and when imported.`;

/** `tradewinds screening-lists …`; returns the exit code. */
export async function screeningListsCommand(
  args: string[],
  deps: {
    db: TDb;
    logger: TLogger;
    threshold: number;
    /** The database's URL, for a screening worker's own connection (re-screens of many contacts). */
    url?: string;
    authToken?: string;
  },
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "status") {
    const history = await listHistory(deps.db);
    if (!history.length) {
      console.log("No lists are loaded.");
      return 0;
    }
    for (const list of history) {
      console.log(
        `${list.is_active ? "active  " : "replaced"}  ${list.source.padEnd(9)} ${list.version_date}  ${String(list.row_count).padStart(6)} rows  sha256 ${list.checksum.slice(0, 16)}…  imported ${list.imported_at}  (${list.file_name})`,
      );
    }
    return 0;
  }
  if (sub !== "import") {
    console.error(LISTS_HELP);
    return 2;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options: { format: { type: "string" } }, allowPositionals: true });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${LISTS_HELP}`);
    return 2;
  }
  const format = parsed.values.format as string | undefined;
  if (format !== undefined && !(format in LIST_SOURCES)) {
    console.error(`--format must be one of ${Object.keys(LIST_SOURCES).join(", ")} (got "${format}")`);
    return 2;
  }
  if (!parsed.positionals.length) {
    console.error(`Name the list file to import.\n\n${LISTS_HELP}`);
    return 2;
  }
  let files: { name: string; bytes: Uint8Array }[];
  try {
    files = parsed.positionals.map((file) => ({
      name: path.basename(file),
      bytes: new Uint8Array(readFileSync(file)),
    }));
  } catch (error) {
    console.error(`Import failed: ${(error as Error).message}`);
    return 1;
  }
  const chosen = (format as TListFormat | undefined) ?? detectFormat(files[0]);
  let stored: Awaited<ReturnType<typeof storeList>>;
  try {
    stored = await storeList(
      deps.db,
      chosen,
      parseListFiles(chosen, files),
      files.map((f) => f.name).join(" + "),
    );
  } catch (error) {
    console.error(`Import failed, the loaded lists are unchanged: ${(error as Error).message}`);
    return 1;
  }
  console.log(
    `Loaded ${stored.source} of ${stored.version_date}: ${stored.row_count} rows, ${stored.entries} entries (sha256 ${stored.checksum.slice(0, 16)}…).`,
  );
  console.log(
    `Against the previous version: ${stored.delta.added.size} new entries, ${stored.delta.removed.size} removed, ${stored.delta.aliases.size} with changed names or aliases.`,
  );
  // Every contact is screened against the new version; running servers pick the lists up by themselves.
  const registry = new ScreeningRegistry(deps.db);
  const job = new RescreenJob(
    { db: deps.db, registry, threshold: deps.threshold },
    deps.logger,
    undefined,
    () => (deps.url ? ScreeningWorker.start(deps.url, deps.authToken, deps.threshold) : null),
  );
  const ids = await allContactIds(deps.db);
  console.log(`Screening ${ids.length} contacts again…`);
  const state = await job.run(ids, "list import", progressLine(), {
    changeReason: explainChange(stored.delta),
  });
  console.log(
    `Done: ${state.done} screened, ${state.changed} changed outcome (flagged in the screenings list), ${state.failed} failed.`,
  );
  // Which contacts changed and why; the same reasons are in the audit log and the screenings screen.
  for (const change of job.changes.slice(0, 20)) {
    console.log(
      `  ${change.name} (contact ${change.contact_id}): ${change.previous} → ${change.status} (${change.reason})`,
    );
  }
  if (job.changes.length > 20) console.log(`  … and ${job.changes.length - 20} more (see the audit log)`);
  return state.failed ? 1 : 0;
}

/** Prints re-screen progress at most every two seconds. */
export function progressLine() {
  let last = 0;
  return (state: TRescreenState) => {
    const now = performance.now();
    if (now - last < 2000 && state.isRunning) return;
    last = now;
    console.log(`… ${state.done}/${state.total} contacts screened, ${state.changed} changed`);
  };
}
