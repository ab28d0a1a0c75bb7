/**
 * Remembers list totals per workspace and query for a short time. Counting 100,000 rows through an
 * index costs ~10 ms of CPU, more than the rest of a list request together; a list's total only
 * changes when rows of that workspace are written. Writes in this process bump the workspace's
 * version (touch), which retires its totals at once; the TTL bounds how long a write by another
 * process (a CLI import) can leave a total behind.
 */
export class CountCache {
  private readonly entries = new Map<string, { total: number; expires: number; version: number }>();
  private readonly versions = new Map<number, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 5_000,
  ) {}

  /** The cached total for this workspace and query key, or a freshly counted one. */
  async get(workspaceId: number, key: string, count: () => Promise<number>): Promise<number> {
    const version = this.versions.get(workspaceId) ?? 0;
    const cacheKey = `${workspaceId}\u0000${key}`;
    const hit = this.entries.get(cacheKey);
    const now = Date.now();
    if (hit && hit.version === version && hit.expires > now) return hit.total;
    const total = await count();
    // Only remember a total that no write overtook while it was being counted.
    if ((this.versions.get(workspaceId) ?? 0) === version) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(cacheKey, { total, expires: now + this.ttlMs, version });
    }
    return total;
  }

  /** Forgets every total of the workspace (call after any write to the table). */
  touch(workspaceId: number): void {
    this.versions.set(workspaceId, (this.versions.get(workspaceId) ?? 0) + 1);
  }
}
