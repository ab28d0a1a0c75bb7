import { createRouter } from "@tanstack/react-router";
import { PageNotFound } from "./components/app/screens";
import type { TRouterContext } from "./router-context";
import { appRoutes } from "./routes/app-routes";
import { rootRoute } from "./routes/root";

const routeTree = rootRoute.addChildren(appRoutes);

/** One router per request on the server, one for the page's life on the client. */
export function createAppRouter(context: TRouterContext, options: { nonce?: string } = {}) {
  return createRouter({
    routeTree,
    context,
    defaultPreload: "intent",
    defaultNotFoundComponent: PageNotFound,
    scrollRestoration: true,
    ssr: options.nonce ? { nonce: options.nonce } : undefined,
  });
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
