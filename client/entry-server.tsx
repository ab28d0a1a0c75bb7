import { createRequestHandler, RouterServer, renderRouterToString } from "@tanstack/react-router/ssr/server";
import type { TRenderArgs } from "../server/ssr";
import { KeptContext, KeptRender, KeptStore } from "./components/app/kept";
import { createApi } from "./lib/api";
import { createDictionaryCache } from "./lib/dictionaries";
import { createSessionStore } from "./lib/session";
import { uiPrefsFromCookie } from "./lib/ui-prefs";
import { createAppRouter } from "./router";

/** Frame parts (sidebar, header) rendered once per set of inputs and reused by later renders. */
const kept = new KeptStore(256);

/** Renders one page on the server; route loaders reach the API in-process through `api`. */
export async function render({
  request,
  nonce,
  assets,
  api,
  user,
  isKeeping = true,
}: TRenderArgs): Promise<Response> {
  const parts = new KeptRender(isKeeping ? kept : null);
  const handler = createRequestHandler({
    request,
    createRouter: () => {
      const client = createApi(api.fetch);
      return createAppRouter(
        {
          api: client,
          assets,
          session: createSessionStore(user),
          dictionaries: createDictionaryCache(client),
          ui: uiPrefsFromCookie(request.headers.get("cookie")),
        },
        { nonce },
      );
    },
  });
  const response = await handler(({ responseHeaders, router }) =>
    renderRouterToString({
      responseHeaders,
      router,
      children: (
        <KeptContext value={parts}>
          <RouterServer router={router} />
        </KeptContext>
      ),
    }),
  );
  if (!parts.isUsed) return response;
  const html = parts.finish(await response.text());
  return new Response(html, { status: response.status, headers: response.headers });
}
