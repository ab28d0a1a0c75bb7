import type { TDb } from "../../../db/client";
import type { TLogger } from "../../lib/logger";
import type { ScreeningRegistry } from "./lists.service";
import type { RescreenJob } from "./rescreen";
import { pendingContactIds } from "./screening.service";

/** How often a running server looks for contacts whose screening is still pending. */
export const SWEEP_INTERVAL_MS = 60_000;

type TSweepDeps = { db: TDb; registry: ScreeningRegistry; rescreen: RescreenJob; logger: TLogger };

/**
 * Screens every contact still marked 'needs screening' (the server stopped before it screened
 * them, a screening failed, a CLI import's screening was cut short). Returns how many it took on.
 */
export async function sweepPendingScreenings(deps: TSweepDeps): Promise<number> {
  if (deps.rescreen.state.isRunning) return 0;
  const { lists } = await deps.registry.get();
  // Nothing can pass without lists; they stay pending (and shown as such) until lists are loaded.
  if (!lists.length) return 0;
  const ids = await pendingContactIds(deps.db);
  if (!ids.length) return 0;
  deps.logger.info("screening contacts whose screening is pending", { count: ids.length });
  await deps.rescreen.run(ids, "pending screenings", undefined, { pendingOnly: true });
  return ids.length;
}

/** Sweeps once now and then every `intervalMs`; returns the function that stops it. */
export function startPendingSweep(deps: TSweepDeps, intervalMs = SWEEP_INTERVAL_MS): () => void {
  let isSweeping = false;
  const sweep = async () => {
    if (isSweeping) return;
    isSweeping = true;
    try {
      await sweepPendingScreenings(deps);
    } catch (error) {
      deps.logger.error("the pending-screening sweep failed", { error: String(error) });
    } finally {
      isSweeping = false;
    }
  };
  void sweep();
  const timer = setInterval(sweep, intervalMs);
  return () => clearInterval(timer);
}
