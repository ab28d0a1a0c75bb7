import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import type { TReportAttribute } from "../../db/contracts/reports";
import { PageHeader } from "../components/app/screens";
import { ErrorPanel } from "../components/kit/error-panel";
import { rootRoute } from "./root";

/** /reports: the pivot. The column list comes from /reports-attributes (in-process during SSR). */
export const reportsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/reports",
  loader: async ({ context }) =>
    (await context.api.get<{ data: TReportAttribute[] }>("/reports-attributes")).data,
  staticData: { title: "Reports" },
  head: () => ({ meta: [{ title: "Reports · Tradewinds" }] }),
  errorComponent: ({ error }) => (
    <section>
      <PageHeader title="Reports" />
      <ErrorPanel error={error} />
    </section>
  ),
  // The pivot's screen loads with its own chunk; the viewer itself loads later still (perspective-loader).
  component: lazyRouteComponent(() =>
    import("../features/reports/reports-screen").then(({ ReportsScreen }) => ({
      default: function ReportsRouteScreen() {
        return <ReportsScreen attributes={reportsRoute.useLoaderData()} />;
      },
    })),
  ),
});
