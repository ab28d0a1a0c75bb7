import { createRoute, useLoaderData, useNavigate, useRouteContext } from "@tanstack/react-router";
import type { TCommonDestination, TMapAnswer, TPerformance, TRecentShipment } from "../../db/contracts/home";
import { DEFAULT_PERIOD, PERIODS, type TPeriod } from "../../db/contracts/periods";
import { PageHeader } from "../components/app/screens";
import { EntityTable, TableSkeleton } from "../components/kit/entity-table";
import { ErrorPanel } from "../components/kit/error-panel";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";
import {
  commonScreen,
  HomeEmptyState,
  PerformanceTiles,
  PeriodSelector,
  recentScreen,
} from "../features/home/home-screen";
import { MapPanel } from "../features/home/map-panel";
import {
  listApiQuery,
  listSearchFor,
  oneOfOrUndefined,
  parseListSearch,
  positiveIntOrUndefined,
  type TListPage,
  type TListSearch,
} from "../lib/list-search";
import { rootRoute } from "./root";

const RECENT_COLUMNS = recentScreen("all").columns;

/**
 * /home's search: the period (bookmarkable; absent means all), the recent table's page, sort and
 * filters under the list screens' usual names, and the destinations table's page as cpage.
 */
type THomeSearch = TListSearch & { period?: TPeriod; cpage?: number };

const validateHomeSearch = (raw: Record<string, unknown>): THomeSearch => {
  const search = parseListSearch(raw);
  return {
    ...search,
    ...listSearchFor(search, RECENT_COLUMNS),
    period: oneOfOrUndefined(raw.period, PERIODS),
    cpage: positiveIntOrUndefined(raw.cpage),
  };
};

type THomeData = {
  performance: TPerformance;
  recent: TListPage<TRecentShipment>;
  common: TListPage<TCommonDestination & { id: number }>;
  map: TMapAnswer;
};

/** The dashboard: performance per status, the world map, most recent shipments, most common destinations. */
export const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/home",
  validateSearch: validateHomeSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }): Promise<THomeData> => {
    const period = deps.period ?? DEFAULT_PERIOD;
    const [performance, recent, common, map] = await Promise.all([
      context.api.get<TPerformance>(`/home/shipping-performance?filter=${period}`),
      context.api.get<TListPage<TRecentShipment>>(
        `/home/most-recent-shipments?filter=${period}&${listApiQuery(deps)}`,
      ),
      context.api.get<TListPage<TCommonDestination>>(
        `/home/most-common-shipments?filter=${period}&page=${deps.cpage ?? 1}&per_page=10`,
      ),
      // Only the destinations: the map draws those, and lists a cluster's shipments on demand.
      context.api.get<TMapAnswer>(`/home/map?filter=${period}&per_page=0`),
    ]);
    return {
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
  component: HomeScreen,
});

function HomeScreen() {
  const { performance, recent, common, map } = useLoaderData({ from: "/home" });
  const search = homeRoute.useSearch();
  const navigate = useNavigate();
  const { api } = useRouteContext({ from: "__root__" });
  const period = search.period ?? DEFAULT_PERIOD;

  if (!performance.has_shipments) {
    return (
      <section>
        <PageHeader title="Dashboard" />
        <HomeEmptyState />
      </section>
    );
  }
  return (
    <section className="space-y-6">
      <PageHeader title="Dashboard" />
      <Card>
        <CardHeader className="flex flex-wrap items-center justify-between gap-3">
          <CardTitle>
            <h2 className="text-lg font-semibold">Shipping Performance</h2>
          </CardTitle>
          <PeriodSelector period={period} />
        </CardHeader>
        <CardContent>
          <PerformanceTiles performance={performance} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>
            <h2 className="text-lg font-semibold">Shipments Map</h2>
          </CardTitle>
        </CardHeader>
        <CardContent>
          <MapPanel map={map} period={period} api={api} />
        </CardContent>
      </Card>
      <div className="grid gap-6 2xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg font-semibold" id="recent-title">
                Most Recent Shipments
              </h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <EntityTable
              screen={recentScreen(period)}
              page={recent}
              search={search}
              dictionaries={{}}
              api={api}
              label="Most Recent Shipments"
            />
          </CardContent>
        </Card>
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg font-semibold">Most Common Shipments</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <EntityTable
              screen={commonScreen(period)}
              page={common}
              search={{ page: search.cpage }}
              dictionaries={{}}
              api={api}
              label="Most Common Shipments"
              onSearch={(next) =>
                navigate({ to: ".", search: (prev: THomeSearch) => ({ ...prev, cpage: next.page }) as never })
              }
            />
          </CardContent>
        </Card>
      </div>
    </section>
  );
}
