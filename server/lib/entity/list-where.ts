// The WHERE and ORDER BY of an entity list: the workspace, each filter (text through the trigram
// index or LIKE, in every case spelling a search needs), date ranges, the list's scope and the sort.
import { and, asc, desc, eq, gte, lte, type SQL, sql } from "drizzle-orm";
import type { TEntityDefinition } from "./entity";
import type { TListQuery } from "./list-query";

/** LIKE pattern for a case-insensitive substring match, with the user's % and _ taken literally. */
export function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * Spellings a case-insensitive search must try. SQLite's LIKE folds ASCII letters only, so
 * "müller" would miss "MÜLLER": a value with other letters is also tried in lower case, upper
 * case and with each word capitalised, which covers how names are written in practice.
 */
export function caseVariants(value: string): string[] {
  if (!/[^\p{ASCII}]/u.test(value)) return [value];
  const lower = value.toLowerCase();
  const capitalised = lower.replace(
    /(^|[\s\-'(/&.])(\p{L})/gu,
    (_, before, letter) => before + letter.toUpperCase(),
  );
  return [...new Set([value, lower, value.toUpperCase(), capitalised])];
}

/** The trigram index cannot match fewer characters than this; shorter filters use LIKE. */
const TRIGRAM = 3;

/**
 * The WHERE clause of a list in two forms.
 * - `all`: the caller's workspace and every requested filter, as the usual plan runs them (long text
 *   filters through the trigram index).
 * - The sort-order walk, for filters that match many rows: `window` (the workspace, the exact-match
 *   filters and the list's scope, which a sort index serves together) picks the first rows in sort
 *   order, and `walked` (the text and date-range filters, each checked on the row) keeps the
 *   matching ones. A trigram-served filter is walked as LIKE, which for an ASCII value matches a
 *   subset of what the trigram index matches; `likeAll` is the whole filter in that form (null when
 *   no filter uses the index), whose count must equal the indexed count before the walk's rows may
 *   be shown. `walked` is null when the walk does not apply (no such filter, a range on the sort
 *   column itself, a non-ASCII value that only the index folds, a sort by a reference's label).
 */
export function listWhere(
  def: TEntityDefinition,
  workspaceId: number,
  query: TListQuery,
): { all: SQL; window: SQL; walked: SQL | null; walkedColumns: SQL[]; likeAll: SQL | null } {
  const windowed: SQL[] = [eq(def.table.workspace_id, workspaceId)];
  const conditions: SQL[] = [...windowed];
  const walked: SQL[] = [];
  const walkedColumns: SQL[] = [];
  let usesIndex = false;
  let isWalkable = !def.columns[query.sort.prop].sortByLabel;
  for (const filter of query.filters) {
    const spec = def.columns[filter.prop];
    const column = spec.column;
    if (filter.kind === "custom" || filter.kind === "boolean" || filter.kind === "number") {
      if (filter.kind === "custom" && !spec.where) {
        throw new Error(`column ${filter.prop} has a custom filter but no where()`);
      }
      const condition = filter.kind === "custom" ? spec.where!(filter.value) : eq(column, filter.value);
      conditions.push(condition);
      windowed.push(condition);
    } else if (filter.kind === "text") {
      const likes = caseVariants(filter.value).map(
        (variant) => sql`${column} like ${containsPattern(variant)} escape '\\'`,
      );
      const like = likes.length === 1 ? (likes[0] as SQL) : sql`(${sql.join(likes, sql` or `)})`;
      walked.push(like);
      const search = def.search;
      if (search?.columns.includes(filter.prop) && [...filter.value].length >= TRIGRAM) {
        const fts = sql.identifier(search.table);
        // A quoted FTS5 phrase on one column: the trigram tokenizer matches it as a substring.
        const phrase = `${filter.prop} : "${filter.value.replaceAll('"', '""')}"`;
        conditions.push(sql`${def.table.id} in (select rowid from ${fts} where ${fts} match ${phrase})`);
        usesIndex = true;
        // LIKE folds ASCII letters only, the trigram index folds every letter.
        if (/[^\p{ASCII}]/u.test(filter.value)) isWalkable = false;
      } else conditions.push(like);
    } else {
      const range: SQL[] = [];
      if (filter.from) range.push(gte(column, filter.from));
      // A date column may hold a full timestamp; "to" includes the whole day.
      if (filter.to) range.push(lte(column, `${filter.to}\uffff`));
      conditions.push(...range);
      walked.push(...range);
    }
    // A filter on the sort column itself: its matches may all lie far down the sort order (names
    // starting with the filtered word), and a range is served in order by that column's index.
    if (filter.kind === "text" || filter.kind === "date") {
      walkedColumns.push(sql`${column}`);
      if (filter.prop === query.sort.prop) isWalkable = false;
    }
  }
  const scope = def.listScope?.(query);
  if (scope) {
    conditions.push(scope);
    windowed.push(scope);
  }
  return {
    all: and(...conditions)!,
    window: and(...windowed)!,
    walked: isWalkable && walked.length ? and(...walked)! : null,
    walkedColumns,
    likeAll: usesIndex ? and(...windowed, ...walked)! : null,
  };
}

/** The ORDER BY of a list: the chosen column, then the id so equal values page stably. */
export function listOrder(def: TEntityDefinition, sort: TListQuery["sort"]): SQL[] {
  const spec = def.columns[sort.prop];
  const direction = sort.direction === "desc" ? desc : asc;
  const byLabel = spec.sortByLabel;
  if (byLabel) {
    const label = byLabel.isNocase ? sql`${byLabel.label} collate nocase` : byLabel.label;
    return [direction(label), direction(byLabel.table.id), direction(def.table.id)];
  }
  const column = spec.isNocase ? sql`${spec.column} collate nocase` : spec.column;
  return [direction(column), direction(def.table.id)];
}
