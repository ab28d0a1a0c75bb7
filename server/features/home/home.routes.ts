import { Hono } from "hono";
import { z } from "zod";
import { ZMapQuery, ZPeriodQuery } from "../../../db/contracts/home";
import type { TAppEnv } from "../../lib/context";
import { parseListQuery } from "../../lib/entity/list-query";
import { validate } from "../../lib/validate";
import { authOf, requireAuth } from "../auth/auth.middleware";
import {
  cachedAnswer,
  mapOfShipments,
  mostCommonDestinations,
  mostRecentShipments,
  RECENT_COLUMNS,
  shippingPerformance,
} from "./home.service";

const ZPagedPeriodQuery = ZPeriodQuery.extend({
  page: z.coerce.number().int().min(1, "page must be a whole number of at least 1").default(1),
  per_page: z.coerce
    .number()
    .int()
    .min(1, "per_page must be between 1 and 100")
    .max(100, "per_page must be between 1 and 100")
    .default(10),
});

/** The home dashboard: performance per status, recent shipments, common destinations, the map. */
export const homeRoutes = new Hono<TAppEnv>()
  .use(requireAuth())
  /** GET /home/shipping-performance?filter=week|month|year|all → counts and percentages per status. */
  .get("/shipping-performance", validate("query", ZPeriodQuery), async (c) => {
    const { filter } = c.req.valid("query");
    const ws = authOf(c).workspaceId;
    return c.json(
      await cachedAnswer(c.var.db, ws, { route: "performance", filter }, () =>
        shippingPerformance(c.var.db, ws, filter),
      ),
    );
  })
  /** GET /home/most-recent-shipments?filter=&page=&per_page=&sort_<prop>=&filters[<prop>]= → a list page. */
  .get("/most-recent-shipments", validate("query", ZPeriodQuery.passthrough()), async (c) => {
    const { filter } = c.req.valid("query");
    const query = parseListQuery(new URL(c.req.url).searchParams, RECENT_COLUMNS, {
      prop: "date",
      direction: "desc",
    });
    const ws = authOf(c).workspaceId;
    return c.json(
      await cachedAnswer(c.var.db, ws, { route: "recent", filter, query }, () =>
        mostRecentShipments(c.var.db, ws, filter, query),
      ),
    );
  })
  /** GET /home/most-common-shipments?filter=&page=&per_page= → destinations with order number and percent. */
  .get("/most-common-shipments", validate("query", ZPagedPeriodQuery), async (c) => {
    const { filter, page, per_page } = c.req.valid("query");
    const ws = authOf(c).workspaceId;
    return c.json(
      await cachedAnswer(c.var.db, ws, { route: "common", filter, page, per_page }, () =>
        mostCommonDestinations(c.var.db, ws, filter, { page, perPage: per_page }),
      ),
    );
  })
  /** GET /home/map?filter=&country_id=&page=&per_page= → destinations (aggregated) and a page of map entries. */
  .get("/map", validate("query", ZMapQuery), async (c) => {
    const ws = authOf(c).workspaceId;
    const query = c.req.valid("query");
    return c.json(
      await cachedAnswer(c.var.db, ws, { route: "map", query }, () => mapOfShipments(c.var.db, ws, query)),
    );
  });
