import type { TDb } from "../../db/client";
import type { TEnv } from "../env";
import type { TSession, TSessionUser } from "../features/auth/session.service";
import type { ScreeningRegistry } from "../features/screening/lists.service";
import type { RescreenJob } from "../features/screening/rescreen";
import type { TDiskSpace } from "./disk-space";
import type { TLogger } from "./logger";
import type { TMailer } from "./mailer";
import type { TStorage } from "./storage";

/** The signed-in caller; every business query is scoped to `workspaceId`. */
export type TAuth = { user: TSessionUser; session: TSession; workspaceId: number };

/** What every request handler can reach through `c.var`. */
export type TAppVariables = {
  db: TDb;
  env: TEnv;
  logger: TLogger;
  mailer: TMailer;
  storage: TStorage;
  /** Whether DATA_DIR takes writes (a full disk refuses them with a 507; see disk-space.ts). */
  disk: TDiskSpace;
  /** The restricted-party lists in memory and the background re-screen job. */
  screening: { registry: ScreeningRegistry; rescreen: RescreenJob; threshold: number };
  /** Signs e-mailed links. */
  secret: string;
  requestId: string;
  /** Per-request CSP nonce for the few inline scripts the router needs for hydration. */
  nonce: string;
  /** Set by requireAuth on guarded routes. */
  auth?: TAuth;
};

export type TAppEnv = { Variables: TAppVariables };
