import { createRoute, Link, notFound, redirect } from "@tanstack/react-router";
import { NotFoundScreen, PageHeader, PlannedScreen } from "../components/app/screens";
import { accountRoute } from "./account";
import { authRoutes } from "./auth";
import { catalogueRoutes } from "./catalogue";
import { contactRoutes } from "./contacts";
import { exporterProfileRoute } from "./exporter-profile";
import { homeRoute } from "./home";
import { membersRoute } from "./members";
import { reportsRoute } from "./reports";
import { rootRoute } from "./root";
import { screeningRoutes } from "./screening";
import { shipmentRoutes } from "./shipments";

/** Item routes take a positive whole-number id; anything else is the 404 'Not found' screen. */
function checkItemId({ params }: { params: Record<string, string> }) {
  if (params.itemId !== undefined && !/^[1-9]\d{0,15}$/.test(params.itemId)) throw notFound();
}

/** A route whose screen is an honest empty state until its feature is built. */
function _plannedRoute<TPath extends string>(path: TPath, title: string, what: string) {
  return createRoute({
    getParentRoute: () => rootRoute,
    path,
    beforeLoad: checkItemId,
    notFoundComponent: NotFoundScreen,
    staticData: { title },
    head: () => ({ meta: [{ title: `${title} · Tradewinds` }] }),
    component: () => <PlannedScreen title={title} what={what} />,
  });
}

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  beforeLoad: () => {
    throw redirect({ to: "/home" });
  },
});

function legalRoute<TSlug extends "terms" | "help" | "privacy">(slug: TSlug, title: string) {
  return createRoute({
    getParentRoute: () => rootRoute,
    path: `/legal/${slug}` as `/legal/${TSlug}`,
    staticData: { title },
    head: () => ({ meta: [{ title: `${title} · Tradewinds` }] }),
    component: () => (
      <section>
        <PageHeader title={title} />
        <Link to="/home" className="text-primary underline-offset-4 hover:underline">
          Home
        </Link>
      </section>
    ),
  });
}

const expertRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/talk-to-an-expert",
  staticData: { title: "Talk to an Expert" },
  head: () => ({ meta: [{ title: "Talk to an Expert · Tradewinds" }] }),
  // The spec shows this link in the sidebar but not the screen's content.
  component: () => (
    <section>
      <PageHeader title="Talk to an Expert" />
      <p className="max-w-prose text-muted-foreground">
        Questions about export controls, licences or paperwork? Contact your compliance adviser.
      </p>
    </section>
  ),
});

export const appRoutes = [
  indexRoute,
  homeRoute,
  ...authRoutes,
  accountRoute,
  exporterProfileRoute,
  membersRoute,
  legalRoute("terms", "Terms"),
  legalRoute("help", "Help"),
  legalRoute("privacy", "Privacy"),
  ...shipmentRoutes,
  ...screeningRoutes,
  ...contactRoutes,
  ...catalogueRoutes,
  expertRoute,
  reportsRoute,
];
