import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type SQL, sql } from "drizzle-orm";
import { openDatabase, type TDb } from "./client";
import { migrateDatabase } from "./migrate";

const MIGRATIONS = path.resolve(import.meta.dir, "migrations");
const dir = mkdtempSync(path.join(tmpdir(), "tradewinds-list-sets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The migrations folder as it was before the list sets (0031–0033), to build an old database. */
function migrationsBefore(tag: string): string {
  const folder = path.join(dir, "before");
  cpSync(MIGRATIONS, folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

/** What the database says when it refuses a statement ("" when it runs). */
async function refusal(db: TDb, statement: SQL): Promise<string> {
  const error = (await (async () => db.run(statement))().catch((e) => e)) as
    | (Error & { cause?: Error })
    | undefined;
  return error ? (error.cause?.message ?? error.message) : "";
}

const SDN = '[{"source":"OFAC SDN","version_date":"2026-08-20","checksum":"aa"}]';
const BOTH =
  '[{"source":"OFAC SDN","version_date":"2026-08-20","checksum":"aa"},{"source":"CSL","version_date":"2026-08-21","checksum":"bb"}]';

describe("moving screenings' inline lists to screening_list_sets (0031–0034)", () => {
  test("each distinct set is stored once, every row points at its own, and the text is unchanged", async () => {
    const { db, close } = await openDatabase(`file:${path.join(dir, "old.db")}`);
    try {
      await migrateDatabase(db, migrationsBefore("0031_screening_list_sets"));
      // Only the screening tables matter here: the contacts they name need not exist.
      await db.run(sql`pragma foreign_keys = off`);
      await db.run(sql`insert into workspaces (id, name) values (1, 'W')`);
      // As the old code wrote them: the lists inline in each result, audit row and screenings row.
      await db.run(sql`insert into contact_screening_results (workspace_id, contact_id, status, name, matches, lists)
        values (1, 1, 'passed', 'Atlas', '[]', ${SDN}), (1, 2, 'failed', 'Borealis', '[]', ${BOTH}), (1, 1, 'passed', 'Atlas', '[]', ${BOTH})`);
      await db.run(sql`insert into screening_audit_log (workspace_id, kind, contact_id, query, lists, matches, outcome)
        values (1, 'screen', 1, '{}', ${SDN}, '[]', 'passed'), (1, 'search', null, '{}', ${BOTH}, '[]', 'passed')`);
      await db.run(sql`insert into rpscreenings (workspace_id, contact_id, name, data_screened, results, status)
        values (1, 2, 'Borealis', '{}', ${`{"best_score":0.9,"multiple":false,"matches":[],"lists":${BOTH},"result_id":2}`}, 'failed'),
          (1, 3, 'No lists', '{}', '{"best_score":0,"matches":[]}', 'passed'),
          (1, 4, 'Damaged', '{}', '{"best_score":', 'passed')`);

      await migrateDatabase(db, MIGRATIONS);

      const sets = await db.all<{ id: number; lists: string }>(
        sql`select id, lists from screening_list_sets order by id`,
      );
      expect(sets.map((s) => s.lists).sort()).toEqual([BOTH, SDN].sort());
      const idOf = (json: string) => sets.find((s) => s.lists === json)?.id as number;
      const results = await db.all<{ list_set_id: number }>(
        sql`select list_set_id from contact_screening_results order by id`,
      );
      expect(results.map((r) => r.list_set_id)).toEqual([idOf(SDN), idOf(BOTH), idOf(BOTH)]);
      const audit = await db.all<{ list_set_id: number }>(
        sql`select list_set_id from screening_audit_log order by id`,
      );
      expect(audit.map((r) => r.list_set_id)).toEqual([idOf(SDN), idOf(BOTH)]);
      const [listed, withoutLists, damaged] = await db.all<{ list_set_id: number | null; results: string }>(
        sql`select list_set_id, results from rpscreenings order by id`,
      );
      // Rows with no lists to move, or JSON that does not parse, are left as they were (and do not
      // stop the upgrade).
      expect(withoutLists).toEqual({ list_set_id: null, results: '{"best_score":0,"matches":[]}' });
      expect(damaged).toEqual({ list_set_id: null, results: '{"best_score":' });
      expect(listed?.list_set_id).toBe(idOf(BOTH) as number);
      expect(JSON.parse(listed?.results ?? "{}")).toEqual({
        best_score: 0.9,
        multiple: false,
        matches: [],
        result_id: 2,
      });
      // The inline copies are gone from the append-only tables.
      const columns = await db.all<{ name: string }>(
        sql`select name from pragma_table_info('screening_audit_log')`,
      );
      expect(columns.map((c) => c.name)).not.toContain("lists");

      // The guards are back, and the sets have their own.
      for (const statement of [
        sql`update screening_audit_log set outcome = 'failed'`,
        sql`update contact_screening_results set status = 'failed'`,
        sql`update screening_list_sets set lists = '[]'`,
        sql`delete from screening_list_sets`,
        sql`delete from screening_audit_log`,
        // INSERT OR REPLACE deletes the row it replaces without a DELETE trigger: refused too.
        sql`insert or replace into screening_list_sets (lists) values (${SDN})`,
        sql`insert or replace into screening_audit_log (id, workspace_id, kind, query, list_set_id, matches, outcome) values (1, 1, 'screen', '{}', 1, '[]', 'failed')`,
        sql`insert or replace into contact_screening_results (id, workspace_id, contact_id, status, name, matches, list_set_id) values (1, 1, 1, 'failed', 'Atlas', '[]', 1)`,
      ])
        expect(await refusal(db, statement)).toMatch(/append-only|never edited/);
      // A new result or audit row must name its lists.
      for (const statement of [
        sql`insert into screening_audit_log (workspace_id, kind, query, matches, outcome) values (1, 'screen', '{}', '[]', 'passed')`,
        sql`insert into contact_screening_results (workspace_id, contact_id, status, name, matches) values (1, 1, 'passed', 'Atlas', '[]')`,
      ])
        expect(await refusal(db, statement)).toMatch(/must name the lists/);
      const [{ n }] = (await db.all<{ n: number }>(
        sql`select (select count(*) from contact_screening_results where list_set_id is null) + (select count(*) from screening_audit_log where list_set_id is null) as n`,
      )) as [{ n: number }];
      expect(n).toBe(0);
    } finally {
      close();
    }
  });
});
