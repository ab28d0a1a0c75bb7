import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import type { TExporterProfile } from "../../db/contracts/exporter-profile";
import { rootRoute } from "./root";

// /user/exporter-profile: the workspace's own legal entity, printed as exporter on the paperwork.
// The screen (./exporter-profile-screen) loads lazily, with its form.

export const exporterProfileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/user/exporter-profile",
  loader: async ({ context }) => {
    const [profile, dictionaries] = await Promise.all([
      context.api.get<{ item: TExporterProfile }>("/exporter-profile"),
      context.dictionaries.load(["countries"]),
    ]);
    return { profile: profile.item, countries: dictionaries.countries ?? [] };
  },
  staticData: { title: "Exporter Profile" },
  head: () => ({ meta: [{ title: "Exporter Profile · Tradewinds" }] }),
  component: lazyRouteComponent(() => import("./exporter-profile-screen"), "ExporterProfileScreen"),
});
