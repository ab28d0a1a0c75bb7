import { and, eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { ZMapQuery, ZPeriodQuery } from "../../../db/contracts/home";
import { users } from "../../../db/schema";
import type { TAppEnv } from "../../lib/context";
import { parseListQuery } from "../../lib/entity/list-query";
import { validationError } from "../../lib/errors";
import { validate } from "../../lib/validate";
import { authOf, requireAuth } from "../auth/auth.middleware";
import {
  cachedAnswer,
  mapOfShipments,
  mostCommonDestinations,
  mostRecentShipments,
  RECENT_COLUMNS,
  shippingPerformance,
  type THomeScope,
} from "./home.service";

/**
 * Whose dashboard a request asks for: the workspace's, or with user_id one of its members' (a
 * removed member's too: their shipments stay attributed to them). Any other id, another
 * workspace's member included, is the same 422.
 */
async function scopeOf(c: Context<TAppEnv>, userId: number | undefined): Promise<THomeScope> {
  const workspaceId = authOf(c).workspaceId;
  if (userId === undefined) return { workspaceId };
  const [member] = await c.var.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.workspace_id, workspaceId)));
  if (!member) {
    const message = `There is no member with id ${userId} in this workspace: choose one of its members, or leave user_id out for everyone's shipments.`;
    throw validationError(message, { user_id: [message] });
  }
  return { workspaceId, userId };
}

const ZPagedPeriodQuery = ZPeriodQuery.extend({
  page: z.coerce.number().int().min(1, "page must be a whole number of at least 1").default(1),
  per_page: z.coerce
    .number()
    .int()
    .min(1, "per_page must be between 1 and 100")
    .max(100, "per_page must be between 1 and 100")
    .default(10),
});

/** The home dashboard: performance per status, recent shipments, common destinations, the map; the workspace's or one member's (user_id). */
export const homeRoutes = new Hono<TAppEnv>()
  .use(requireAuth())
  /** GET /home/shipping-performance?filter=week|month|year|all&user_id= → counts and percentages per status. */
  .get("/shipping-performance", validate("query", ZPeriodQuery), async (c) => {
    const { filter, user_id } = c.req.valid("query");
    const scope = await scopeOf(c, user_id);
    return c.json(
      await cachedAnswer(c.var.db, scope.workspaceId, { route: "performance", filter, user_id }, () =>
        shippingPerformance(c.var.db, scope, filter),
      ),
    );
  })
  /** GET /home/most-recent-shipments?filter=&user_id=&page=&per_page=&sort_<prop>=&filters[<prop>]= → a list page. */
  .get("/most-recent-shipments", validate("query", ZPeriodQuery.passthrough()), async (c) => {
    const { filter, user_id } = c.req.valid("query");
    const query = parseListQuery(new URL(c.req.url).searchParams, RECENT_COLUMNS, {
      prop: "date",
      direction: "desc",
    });
    const scope = await scopeOf(c, user_id);
    return c.json(
      await cachedAnswer(c.var.db, scope.workspaceId, { route: "recent", filter, user_id, query }, () =>
        mostRecentShipments(c.var.db, scope, filter, query),
      ),
    );
  })
  /** GET /home/most-common-shipments?filter=&user_id=&page=&per_page= → destinations with order number and percent. */
  .get("/most-common-shipments", validate("query", ZPagedPeriodQuery), async (c) => {
    const { filter, user_id, page, per_page } = c.req.valid("query");
    const scope = await scopeOf(c, user_id);
    return c.json(
      await cachedAnswer(
        c.var.db,
        scope.workspaceId,
        { route: "common", filter, user_id, page, per_page },
        () => mostCommonDestinations(c.var.db, scope, filter, { page, perPage: per_page }),
      ),
    );
  })
  /** GET /home/map?filter=&user_id=&country_id=&page=&per_page= → destinations (aggregated) and a page of map entries. */
  .get("/map", validate("query", ZMapQuery), async (c) => {
    const query = c.req.valid("query");
    const scope = await scopeOf(c, query.user_id);
    return c.json(
      await cachedAnswer(c.var.db, scope.workspaceId, { route: "map", query }, () =>
        mapOfShipments(c.var.db, scope, query),
      ),
    );
  });
