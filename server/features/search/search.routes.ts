import { Hono } from "hono";
import { ZSearchQuery } from "../../../db/contracts/search";
import type { TAppEnv } from "../../lib/context";
import { validate } from "../../lib/validate";
import { authOf, requireAuth } from "../auth/auth.middleware";
import { searchWorkspace } from "./search.service";

/** The global search over the workspace's contacts, products, licences and shipments. */
export const searchRoutes = new Hono<TAppEnv>()
  .use(requireAuth())
  /** GET /search?q=<2–100 characters> → {q, hits: [{kind, id, title, detail, path}]}. */
  .get("/", validate("query", ZSearchQuery), async (c) => {
    const { q } = c.req.valid("query");
    return c.json({ q, hits: await searchWorkspace(c.var.db, authOf(c).workspaceId, q) });
  });
