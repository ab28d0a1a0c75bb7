import { createRoute, lazyRouteComponent, redirect } from "@tanstack/react-router";
import type { TDictionaryOption } from "../../db/contracts/dictionary";
import type { TCommonDestination, TMapAnswer, TPerformance, TRecentShipment } from "../../db/contracts/home";
import { DEFAULT_PERIOD, PERIODS } from "../../db/contracts/periods";
import { PageHeader } from "../components/app/screens";
import { TableSkeleton } from "../components/kit/entity-table";
import { ErrorPanel } from "../components/kit/error-panel";
import { recentScreen } from "../features/home/home-screen";
import { ApiError } from "../lib/api";
import {
  listApiQuery,
  listSearchFor,
  oneOfOrUndefined,
  parseListSearch,
  positiveIntOrUndefined,
  type TListPage,
} from "../lib/list-search";
import type { THomeSearch } from "./home-search";
import { rootRoute } from "./root";

const RECENT_COLUMNS = recentScreen("all").columns;

const validateHomeSearch = (raw: Record<string, unknown>): THomeSearch => {
  const search = parseListSearch(raw);
  return {
    ...search,
    ...listSearchFor(search, RECENT_COLUMNS),
    period: oneOfOrUndefined(raw.period, PERIODS),
    user: positiveIntOrUndefined(raw.user),
    cpage: positiveIntOrUndefined(raw.cpage),
  };
};

type THomeData = {
  performance: TPerformance;
  recent: TListPage<TRecentShipment>;
  common: TListPage<TCommonDestination & { id: number }>;
  map: TMapAnswer;
  /** The workspace's members, removed ones too (their shipments stay theirs): the User choice. */
  users: TDictionaryOption[];
};

/**
 * The dashboard: performance per status, the world map, most recent shipments, most common
 * destinations; the workspace's shipments, or one member's (those they created).
 */
export const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/home",
  validateSearch: validateHomeSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }): Promise<THomeData> => {
    // Every widget shows the period's shipments, everyone's or the chosen member's.
    const scope = `filter=${deps.period ?? DEFAULT_PERIOD}${deps.user ? `&user_id=${deps.user}` : ""}`;
    const answers = Promise.all([
      context.api.get<TPerformance>(`/home/shipping-performance?${scope}`),
      context.api.get<TListPage<TRecentShipment>>(
        `/home/most-recent-shipments?${scope}&${listApiQuery(deps)}`,
      ),
      context.api.get<TListPage<TCommonDestination>>(
        `/home/most-common-shipments?${scope}&page=${deps.cpage ?? 1}&per_page=10`,
      ),
      // Only the destinations: the map draws those, and lists a cluster's shipments on demand.
      context.api.get<TMapAnswer>(`/home/map?${scope}&per_page=0`),
      context.dictionaries.load(["users"]),
    ]);
    const [performance, recent, common, map, dictionaries] = await answers.catch((error) => {
      // A bookmarked member who is no longer one (another workspace's, or a mistyped id): everyone's
      // dashboard instead of an error.
      if (deps.user && error instanceof ApiError && error.status === 422) {
        throw redirect({ to: "/home", search: { ...deps, user: undefined }, replace: true });
      }
      throw error;
    });
    return {
      users: dictionaries.users ?? [],
      performance,
      recent,
      common: { ...common, data: common.data.map((row) => ({ ...row, id: row.country_id })) },
      map,
    };
  },
  staticData: { title: "Dashboard" },
  head: () => ({ meta: [{ title: "Dashboard · Tradewinds" }] }),
  pendingComponent: () => (
    <section>
      <PageHeader title="Dashboard" />
      <TableSkeleton columns={5} />
    </section>
  ),
  errorComponent: ({ error }) => (
    <section>
      <PageHeader title="Dashboard" />
      <ErrorPanel error={error} />
    </section>
  ),
  // The dashboard (tiles, map panel, tables) loads with its own chunk, not with every screen.
  component: lazyRouteComponent(() => import("./home-screen"), "HomeScreen"),
});
