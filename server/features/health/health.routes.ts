import { sql } from "drizzle-orm";
import { Hono } from "hono";
import pkg from "../../../package.json";
import type { TAppEnv } from "../../lib/context";

/**
 * GET /api/health: proves the process is up and the database answers a query (503 when it does
 * not), and says whether the screening index is built yet (the server listens before it is).
 */
export const healthRoutes = new Hono<TAppEnv>().get("/", async (c) => {
  try {
    await c.var.db.run(sql`select 1`);
  } catch (error) {
    c.var.logger.error("health check: database did not answer", { error: String(error) });
    return c.json({ status: "error", version: pkg.version, db: "error" }, 503);
  }
  return c.json({
    status: "ok",
    version: pkg.version,
    db: "ok",
    screening_index: c.var.screening.registry.state,
  });
});
