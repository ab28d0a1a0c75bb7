import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseCsl } from "./parsers/csl";
import { parseDpl } from "./parsers/dpl";
import { parseOfacSdn } from "./parsers/ofac";
import type { ListEntry, ParsedList } from "./types";

const SHARED_DATA_DIR = "/work/shared/data/screening";
const REPO_DATA_DIR = resolve(import.meta.dir, "../../../../db/screening-lists");

/** Folder with the bundled list files: $SCREENING_DATA_DIR, else db/screening-lists, else the shared copy. */
export function screeningDataDir(): string {
  const fromEnv = process.env.SCREENING_DATA_DIR;
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  return existsSync(REPO_DATA_DIR) && readdirSync(REPO_DATA_DIR).some((f) => f.startsWith("ofac_"))
    ? REPO_DATA_DIR
    : SHARED_DATA_DIR;
}

/** Newest file in `dir` whose name matches `pattern` (names carry ISO dates, so they sort by date). */
export function findListFile(dir: string, pattern: RegExp): string | undefined {
  const matches = readdirSync(dir)
    .filter((f) => pattern.test(f))
    .sort();
  const newest = matches[matches.length - 1];
  return newest === undefined ? undefined : join(dir, newest);
}

/**
 * Parses every bundled list: OFAC SDN (JSON mirror, else CSV, with raw ADD.CSV addresses), the BIS
 * DPL and each CSL file. For scripts and tests; the app's importer reads uploads itself.
 */
export function loadBundledLists(dir: string = screeningDataDir()): {
  lists: ParsedList[];
  entries: ListEntry[];
} {
  const read = (path: string | undefined): Buffer | undefined =>
    path === undefined ? undefined : readFileSync(path);
  const lists: ParsedList[] = [];
  const sdn = findListFile(dir, /^ofac_sdn_\d.*\.json$/) ?? findListFile(dir, /^ofac_sdn_\d.*\.csv$/);
  if (sdn !== undefined) {
    lists.push(
      parseOfacSdn(readFileSync(sdn), undefined, read(findListFile(dir, /^ofac_add_raw.*\.csv$/)), {
        publishedAt: /(\d{4}-\d{2}-\d{2})/.exec(sdn)?.[1],
      }),
    );
  }
  const dpl = findListFile(dir, /^bis_dpl.*\.txt$/);
  if (dpl !== undefined) lists.push(parseDpl(readFileSync(dpl)));
  for (const file of readdirSync(dir)
    .filter((f) => /^csl.*\.csv$/.test(f))
    .sort()) {
    lists.push(parseCsl(readFileSync(join(dir, file))));
  }
  return { lists, entries: lists.flatMap((l) => l.entries) };
}
