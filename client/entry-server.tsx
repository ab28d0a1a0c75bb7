import { createRequestHandler, RouterServer, renderRouterToString } from "@tanstack/react-router/ssr/server";
import type { TRenderArgs } from "../server/ssr";
import { createApi } from "./lib/api";
import { createDictionaryCache } from "./lib/dictionaries";
import { createSessionStore } from "./lib/session";
import { uiPrefsFromCookie } from "./lib/ui-prefs";
import { createAppRouter } from "./router";

/** Renders one page on the server; route loaders reach the API in-process through `api`. */
export async function render({ request, nonce, assets, api }: TRenderArgs): Promise<Response> {
  const handler = createRequestHandler({
    request,
    createRouter: () => {
      const client = createApi(api.fetch);
      return createAppRouter(
        {
          api: client,
          assets,
          session: createSessionStore(),
          dictionaries: createDictionaryCache(client),
          ui: uiPrefsFromCookie(request.headers.get("cookie")),
        },
        { nonce },
      );
    },
  });
  return handler(({ responseHeaders, router }) =>
    renderRouterToString({ responseHeaders, router, children: <RouterServer router={router} /> }),
  );
}
