import { createRoute, lazyRouteComponent, notFound, useRouteContext } from "@tanstack/react-router";
import { DownloadIcon } from "lucide-react";
import { useEffect, useState } from "react";
import type { TScreeningHistoryEntry } from "../../db/contracts/screening";
import { NotFoundScreen } from "../components/app/screens";
import { Button } from "../components/ui/button";
import { RescreenProgress } from "../features/screening/rescreen-progress";
import { ListChanges, ScreeningHistory, type THistoryAnswer } from "../features/screening/screening-history";
import { screeningsScreen } from "../features/screening/screenings-screen";
import { ApiError } from "../lib/api";
import { positiveIntOrUndefined, stringOrUndefined } from "../lib/list-search";
import { rootRoute } from "./root";
import { createSectionRoutes } from "./section-routes";

const searchRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/restricted-party-screening/search",
  validateSearch: (raw: Record<string, unknown>): { keywords?: string; name?: string; address?: string } => ({
    keywords: stringOrUndefined(raw.keywords),
    name: stringOrUndefined(raw.name),
    address: stringOrUndefined(raw.address),
  }),
  staticData: { title: "Restricted Party Search" },
  head: () => ({ meta: [{ title: "Restricted Party Search · Tradewinds" }] }),
  // The search form loads with its own chunk (with zod), not with every screen.
  component: lazyRouteComponent(() =>
    import("../features/screening/screening-search").then(({ ScreeningSearch }) => ({
      default: function SearchScreen() {
        const initial = searchRoute.useSearch();
        const { api } = useRouteContext({ from: "__root__" });
        return <ScreeningSearch api={api} initial={initial} />;
      },
    })),
  ),
});

const historyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/restricted-party-screening/history/$contactId",
  params: {
    // Not an id (0, a word…) reaches the loader as 0, which answers the 404 screen like any other
    // unknown contact: a throw here would be the error screen instead.
    parse: ({ contactId }) => ({ contactId: positiveIntOrUndefined(contactId) ?? 0 }),
    stringify: ({ contactId }) => ({ contactId: String(contactId) }),
  },
  staticData: { title: "Screening history" },
  notFoundComponent: NotFoundScreen,
  head: () => ({ meta: [{ title: "Screening history · Tradewinds" }] }),
  loader: async ({ context, params }) => {
    if (!params.contactId) throw notFound();
    try {
      return await context.api.get<THistoryAnswer>(`/screenings/contact/${params.contactId}/history`);
    } catch (error) {
      // Unknown or another workspace's contact: the 404 screen, as for every other record.
      if (error instanceof ApiError && error.status === 404) throw notFound();
      throw error;
    }
  },
  // Not a lazy chunk: the screenings list and the party switch already bring this module (its
  // review badge and list changes), so a dynamic import split nothing off.
  component: function HistoryScreen() {
    return <ScreeningHistory answer={historyRoute.useLoaderData()} />;
  },
});

function ListsAndProgress() {
  const { api } = useRouteContext({ from: "__root__" });
  const [changes, setChanges] = useState<TScreeningHistoryEntry[]>([]);
  useEffect(() => {
    api
      .get<{ data: TScreeningHistoryEntry[] }>("/screenings/changes")
      .then((answer) => setChanges(answer.data))
      .catch(() => setChanges([]));
  }, [api]);
  return (
    <div className="mb-4 space-y-2">
      <RescreenProgress api={api} />
      <ListChanges changes={changes} />
    </div>
  );
}

/** The screenings list with Download Results and Search, its print page, and the search page. */
export const screeningRoutes = [
  ...createSectionRoutes("restricted-party-screening", "screening", screeningsScreen, {
    isReadOnly: true,
    listIntro: () => <ListsAndProgress />,
    listActions: () => (
      <>
        <Button asChild variant="outline">
          <a href="/api/screenings/download" download>
            <DownloadIcon />
            Download Results
          </a>
        </Button>
        <Button asChild variant="outline">
          <a href="/api/screenings/audit" download>
            <DownloadIcon />
            Audit log
          </a>
        </Button>
        <Button asChild>
          <a href="/restricted-party-screening/search">Search the lists</a>
        </Button>
      </>
    ),
  }),
  searchRoute,
  historyRoute,
];
