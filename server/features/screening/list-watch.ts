import type { TDb } from "../../../db/client";
import type { TLogger } from "../../lib/logger";
import { activeLists, type ScreeningRegistry } from "./lists.service";

/**
 * Keeps a running server's in-memory index in step with the database: a list imported by the CLI
 * (another process) is noticed within the interval and the index is rebuilt and swapped in. The
 * CLI itself re-screens the contacts.
 */
export function watchListVersions(
  db: TDb,
  registry: ScreeningRegistry,
  logger: TLogger,
  intervalMs = 30_000,
) {
  const check = async () => {
    try {
      const [{ lists }, current] = await Promise.all([registry.get(), activeLists(db)]);
      const key = (l: { source: string; checksum: string }[]) =>
        l.map((x) => `${x.source}:${x.checksum}`).join("|");
      if (key(lists) !== key(current)) {
        logger.info("restricted-party lists changed: rebuilding the screening index");
        await registry.rebuild();
      }
    } catch (error) {
      logger.error("checking the screening lists failed", { error: String(error) });
    }
  };
  const timer = setInterval(check, intervalMs);
  return () => clearInterval(timer);
}
