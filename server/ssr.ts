import type { TPublicUser } from "../db/contracts/auth";
import type { TPageAssets } from "./lib/assets";

/** What the server hands the client's entry-server render function for one page request. */
export type TRenderArgs = {
  request: Request;
  nonce: string;
  assets: TPageAssets;
  /** The signed-in caller as GET /api/user answers it (null: none); absent: the router asks the API. */
  user?: TPublicUser | null;
  api: { fetch: (path: string, init?: RequestInit) => Promise<Response> | Response };
  /** Reuse kept frame markup (client/components/app/kept.tsx); default true, false renders it all. */
  isKeeping?: boolean;
};

export type TRenderPage = (args: TRenderArgs) => Promise<Response>;
