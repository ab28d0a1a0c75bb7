import { createRoute, lazyRouteComponent, useRouterState } from "@tanstack/react-router";
import { preinitModule, preload, preloadModule } from "react-dom";
import type { TReportPivot } from "../../db/contracts/report-pivot";
import type { TReportAttribute } from "../../db/contracts/reports";
import { PageHeader } from "../components/app/screens";
import { ErrorPanel } from "../components/kit/error-panel";
import { firstDataUrl, initialConfig } from "../features/reports/report-view";
import { rootRoute } from "./root";

/** /reports: the pivot. The column list comes from /reports-attributes (in-process during SSR). */
export const reportsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/reports",
  loader: async ({ context }) => {
    const { data, pivot } = await context.api.get<{ data: TReportAttribute[]; pivot: TReportPivot }>(
      "/reports-attributes",
    );
    return { attributes: data, pivot };
  },
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
        // Server render only (the browser's context has no `reports` list): the page's first bytes ask
        // for Perspective's chunk and both WebAssembly files, so they download while the app's own
        // JavaScript loads and hydrates instead of after it.
        // The first view's columns too: the screen's own fetch of that URL takes this response over.
        const { reports } = reportsRoute.useRouteContext().assets;
        const { attributes, pivot } = reportsRoute.useLoaderData();
        const search = useRouterState({ select: (s) => s.location.searchStr });
        // A workspace that pivots on the server needs neither the lines nor Perspective's engine: only
        // the chunks and the viewer's WebAssembly, and Perspective's chunk runs once the page is in.
        if (reports) {
          const isServer = pivot === "server";
          if (!isServer) {
            preload(firstDataUrl(initialConfig(attributes, search), attributes), {
              as: "fetch",
              crossOrigin: "anonymous",
            });
          }
          for (const href of reports.modules) preloadModule(href);
          // Perspective's chunk runs as soon as it arrives (an async module script), not after the
          // app's code has loaded: it starts the WebAssembly compilation and the worker on /reports.
          if (reports.start && !isServer) preinitModule(reports.start, { as: "script" });
          for (const href of reports.styles) preload(href, { as: "style", crossOrigin: "anonymous" });
          for (const href of reports.files) {
            if (!isServer || !href.includes("perspective-server")) {
              preload(href, { as: "fetch", crossOrigin: "anonymous" });
            }
          }
        }
        return <ReportsScreen attributes={attributes} pivot={pivot} />;
      },
    })),
  ),
});
