import { sql } from "drizzle-orm";
import type { TDb } from "../../db/client";

/**
 * Signed-in pages whose whole content has a data version: a render is kept and served again (with
 * the request's own nonce) while nothing it shows can have changed. Only /home qualifies: everything
 * on it comes from the dashboard's four answers, which are a function of the workspace's
 * `home_versions` counter (raised by SQL triggers on every shipment write and contact change, from
 * any process: see home.service.ts `cachedAnswer`) and of the day (periods move with it); the rest is
 * the caller (their public user record, part of the key) and the sidebar cookie (part of the key).
 * The counter is read from the database on every request, so a write by another process shows at once.
 */
const VERSIONED: Record<string, (db: TDb, workspaceId: number) => Promise<string>> = {
  "/home": async (db, workspaceId) => {
    const [row] = await db.all<{ version: number }>(
      sql`select version from home_versions where workspace_id = ${workspaceId}`,
    );
    return `${row?.version ?? 0}:${new Date().toISOString().slice(0, 10)}`;
  },
};

export type TKeptPage = { parts: string[]; status: number; headers: [string, string][] };

/** Rendered pages by path, caller, display cookie and data version; least recently used out first. */
export class VersionedPages {
  readonly #pages = new Map<string, TKeptPage>();
  constructor(readonly maxEntries = 200) {}

  /** The key a signed-in page is kept under now, or null when the page has no data version. */
  async keyOf(
    db: TDb,
    url: URL,
    caller: { workspaceId: number; user: unknown },
    isSidebarCollapsed: boolean,
  ): Promise<string | null> {
    const version = VERSIONED[url.pathname];
    if (!version) return null;
    const data = await version(db, caller.workspaceId);
    return JSON.stringify([url.pathname, url.search, isSidebarCollapsed, caller.user, data]);
  }

  get(key: string): TKeptPage | undefined {
    const page = this.#pages.get(key);
    if (page) {
      this.#pages.delete(key);
      this.#pages.set(key, page);
    }
    return page;
  }

  set(key: string, page: TKeptPage): void {
    this.#pages.delete(key);
    this.#pages.set(key, page);
    while (this.#pages.size > this.maxEntries) {
      const oldest = this.#pages.keys().next().value;
      if (oldest === undefined) break;
      this.#pages.delete(oldest);
    }
  }
}
