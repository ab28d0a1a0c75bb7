import type { TDb } from "../../db/client";
import type { TEnv } from "../env";
import type { TLogger } from "./logger";

/** What every request handler can reach through `c.var`. */
export type TAppVariables = {
  db: TDb;
  env: TEnv;
  logger: TLogger;
  requestId: string;
  /** Per-request CSP nonce for the few inline scripts the router needs for hydration. */
  nonce: string;
};

export type TAppEnv = { Variables: TAppVariables };
