import { sql } from "drizzle-orm";
import { Hono } from "hono";
import pkg from "../../../package.json";
import type { TAppEnv } from "../../lib/context";
import { storageError } from "../../lib/disk-space";

/**
 * GET /api/health: proves the process is up and the database answers a query (503 when it does
 * not), whether DATA_DIR takes writes (`storage`: ok, full or read-only, from a write probe), and
 * whether the screening index is built yet (the server listens before it is).
 */
export const healthRoutes = new Hono<TAppEnv>().get("/", async (c) => {
  try {
    await c.var.db.run(sql`select 1`);
  } catch (error) {
    c.var.logger.error("health check: database did not answer", { error: String(error) });
    return c.json({ status: "error", version: pkg.version, db: "error" }, 503);
  }
  // The write probe: a full or read-only disk still serves reads and sign-ins, so the answer stays
  // 200 with status "degraded" and says why.
  const storage = c.var.disk.current();
  return c.json({
    status: storage === "ok" ? "ok" : "degraded",
    version: pkg.version,
    db: "ok",
    storage,
    ...(storage === "ok" ? {} : { message: storageError(storage).message }),
    screening_index: c.var.screening.registry.state,
  });
});
