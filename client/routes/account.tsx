import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { numberOrUndefined } from "../lib/list-search";
import { rootRoute } from "./root";

// /user/account. The screen (./account-route) loads lazily, with its forms.

export const accountRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/user/account",
  validateSearch: (raw: Record<string, unknown>): { verified?: number } => ({
    verified: numberOrUndefined(raw.verified),
  }),
  staticData: { title: "User Profile" },
  head: () => ({ meta: [{ title: "User Profile · Tradewinds" }] }),
  component: lazyRouteComponent(() => import("./account-route"), "AccountScreen"),
});
