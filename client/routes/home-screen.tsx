import { getRouteApi, useLoaderData, useNavigate, useRouteContext } from "@tanstack/react-router";
import { DEFAULT_PERIOD } from "../../db/contracts/periods";
import { PageHeader } from "../components/app/screens";
import { EntityTable } from "../components/kit/entity-table";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";
import { FirstRunChecklist } from "../features/home/first-run-checklist";
import {
  commonScreen,
  HomeEmptyState,
  PerformanceTiles,
  PeriodSelector,
  recentScreen,
  UserSelector,
} from "../features/home/home-screen";
import { MapPanel } from "../features/home/map-panel";
import type { THomeSearch } from "./home-search";

// The route's hooks by its id: the route file (./home) imports this screen lazily, not the other way round.
const homeRoute = getRouteApi("/home");

/** /home's screen (its route, search and loader are in ./home). */
export function HomeScreen() {
  const { performance, recent, common, map, users } = useLoaderData({ from: "/home" });
  const search = homeRoute.useSearch();
  const navigate = useNavigate();
  const { api, user } = useRouteContext({ from: "__root__" });
  const period = search.period ?? DEFAULT_PERIOD;

  if (!performance.has_shipments) {
    return (
      <section>
        <PageHeader title="Dashboard" />
        <div className="space-y-6">
          <FirstRunChecklist api={api} user={user ?? null} hasShipments={false} />
          <HomeEmptyState />
        </div>
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
          <div className="flex flex-wrap items-center gap-3">
            <UserSelector users={users} user={search.user} />
            <PeriodSelector period={period} />
          </div>
        </CardHeader>
        <CardContent>
          <PerformanceTiles performance={performance} period={period} user={search.user} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>
            <h2 className="text-lg font-semibold">Shipments Map</h2>
          </CardTitle>
        </CardHeader>
        <CardContent>
          <MapPanel map={map} period={period} user={search.user} api={api} />
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
