import type { TPageAssets } from "../server/lib/assets";
import type { TApi } from "./lib/api";

/** What every route can reach: the API client (in-process on the server) and the page's assets. */
export type TRouterContext = {
  api: TApi;
  assets: TPageAssets;
};
