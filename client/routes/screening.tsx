import { createRoute, useRouteContext } from "@tanstack/react-router";
import { DownloadIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { z } from "zod";
import type { TScreeningHistoryEntry } from "../../db/contracts/screening";
import { Button } from "../components/ui/button";
import { RescreenProgress } from "../features/screening/rescreen-progress";
import { ListChanges, ScreeningHistory, type THistoryAnswer } from "../features/screening/screening-history";
import { ScreeningSearch } from "../features/screening/screening-search";
import { screeningsScreen } from "../features/screening/screenings-screen";
import { rootRoute } from "./root";
import { createSectionRoutes } from "./section-routes";

const searchRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/restricted-party-screening/search",
  validateSearch: z.object({
    keywords: z.string().optional().catch(undefined),
    name: z.string().optional().catch(undefined),
    address: z.string().optional().catch(undefined),
  }),
  staticData: { title: "Restricted Party Search" },
  head: () => ({ meta: [{ title: "Restricted Party Search · Tradewinds" }] }),
  component: function SearchScreen() {
    const initial = searchRoute.useSearch();
    const { api } = useRouteContext({ from: "__root__" });
    return <ScreeningSearch api={api} initial={initial} />;
  },
});

const historyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/restricted-party-screening/history/$contactId",
  params: {
    parse: ({ contactId }) => ({ contactId: z.coerce.number().int().positive().parse(contactId) }),
    stringify: ({ contactId }) => ({ contactId: String(contactId) }),
  },
  staticData: { title: "Screening history" },
  head: () => ({ meta: [{ title: "Screening history · Tradewinds" }] }),
  loader: ({ context, params }) =>
    context.api.get<THistoryAnswer>(`/screenings/contact/${params.contactId}/history`),
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
