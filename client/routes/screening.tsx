import { createRoute, useRouteContext } from "@tanstack/react-router";
import { DownloadIcon } from "lucide-react";
import { z } from "zod";
import { Button } from "../components/ui/button";
import { RescreenProgress } from "../features/screening/rescreen-progress";
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

function ListsAndProgress() {
  const { api } = useRouteContext({ from: "__root__" });
  return <RescreenProgress api={api} />;
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
];
