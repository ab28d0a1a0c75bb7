import type { TPageAssets } from "../server/lib/assets";
import type { TApi } from "./lib/api";
import type { TDictionaryCache } from "./lib/dictionaries";
import type { TSessionStore } from "./lib/session";

/** What every route can reach: the API client (in-process on the server), the page's assets and the session. */
export type TRouterContext = {
  api: TApi;
  assets: TPageAssets;
  session: TSessionStore;
  dictionaries: TDictionaryCache;
};
