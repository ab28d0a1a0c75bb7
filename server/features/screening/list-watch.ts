import { gte } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { contacts } from "../../../db/schema";
import type { TLogger } from "../../lib/logger";
import { activeLists, type ScreeningRegistry } from "./lists.service";
import type { RescreenJob } from "./rescreen";

/**
 * How far before a list's import the catch-up looks: contacts' updated_at comes from the app
 * process's clock, the list's imported_at from the database's, and machines' clocks differ a little.
 */
const CLOCK_MARGIN_MS = 60_000;

type TWatchDeps = { db: TDb; registry: ScreeningRegistry; logger: TLogger; rescreen?: RescreenJob };

/**
 * Compares this process's index with the active lists and, when another process imported a list,
 * rebuilds the index and re-screens the contacts saved since that import: until now this process
 * screened them against the previous lists, and the importing command's re-screen may have taken
 * its list of contacts before they were saved. Returns whether the lists had changed.
 */
export async function checkListVersions(deps: TWatchDeps): Promise<boolean> {
  const [{ lists }, current] = await Promise.all([deps.registry.get(), activeLists(deps.db)]);
  const key = (l: { source: string; checksum: string }[]) =>
    l.map((x) => `${x.source}:${x.checksum}`).join("|");
  if (key(lists) === key(current)) return false;
  deps.logger.info("restricted-party lists changed: rebuilding the screening index");
  await deps.registry.rebuild();
  if (!deps.rescreen) return true;
  const known = new Set(lists.map((list) => `${list.source}:${list.checksum}`));
  const imported = current
    .filter((list) => !known.has(`${list.source}:${list.checksum}`))
    .map((list) => Date.parse(`${list.imported_at}`));
  const since = imported.length ? Math.min(...imported) : Number.NaN;
  if (Number.isNaN(since)) return true;
  const saved = await deps.db
    .select({ id: contacts.id })
    .from(contacts)
    .where(gte(contacts.updated_at, new Date(since - CLOCK_MARGIN_MS).toISOString()))
    .orderBy(contacts.id);
  if (saved.length) {
    deps.logger.info("screening the contacts saved since the list import again", { count: saved.length });
    await deps.rescreen.run(
      saved.map((row) => row.id),
      "list import",
    );
  }
  return true;
}

/**
 * Keeps a running server's in-memory index in step with the database: a list imported by the CLI
 * (another process) is noticed within the interval, the index is rebuilt and swapped in, and the
 * contacts saved since the import are screened again (checkListVersions). The CLI itself
 * re-screens every contact it finds.
 */
export function watchListVersions(deps: TWatchDeps, intervalMs = 30_000) {
  const check = async () => {
    try {
      await checkListVersions(deps);
    } catch (error) {
      deps.logger.error("checking the screening lists failed", { error: String(error) });
    }
  };
  const timer = setInterval(check, intervalMs);
  return () => clearInterval(timer);
}
