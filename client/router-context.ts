import type { TPageAssets } from "../server/lib/assets";
import type { TApi } from "./lib/api";
import type { TDictionaryCache } from "./lib/dictionaries";
import type { TSessionStore } from "./lib/session";
import type { TUiPrefs } from "./lib/ui-prefs";

/** What every route can reach: the API client (in-process on the server), the page's assets and the session. */
export type TRouterContext = {
  api: TApi;
  assets: TPageAssets;
  session: TSessionStore;
  dictionaries: TDictionaryCache;
  /** Display preferences from the cookie, so the server renders the frame as the browser will. */
  ui: TUiPrefs;
};
