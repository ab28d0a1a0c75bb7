import { type Context, Hono } from "hono";
import { authOf, requireAuth } from "../../features/auth/auth.middleware";
import { loadDictionaries } from "../../features/dictionary/dictionary.service";
import type { TAppEnv } from "../context";
import { AppError } from "../errors";
import type { TEntityDefinition } from "./entity";
import { createRecord, deleteRecord, getRecord, listRecords, updateRecord } from "./entity.service";
import { parseListQuery } from "./list-query";

const ID = "{[1-9][0-9]{0,15}}";

/** The body as JSON, or a 400 a person can act on. */
export async function readJson(c: Context<TAppEnv>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new AppError("BAD_REQUEST", "The request body is not valid JSON.");
  }
}

/**
 * The generic list/CRUD API of one entity, behind the session wall and scoped to the
 * caller's workspace:
 * GET / (list) · GET /edit (blank form + dictionaries) · GET /{id} · GET /{id}/edit ·
 * POST / · PUT /{id} · DELETE /{id}[?force=1].
 */
export function createEntityRoutes(
  def: TEntityDefinition,
  options: {
    /** Only the read calls (list, get, edit): for records the system writes, like screenings. */
    isReadOnly?: boolean;
    /** Runs after a create or update, with the record before (null on create); failures are logged. */
    afterSave?: (
      c: Context<TAppEnv>,
      item: Record<string, unknown>,
      before: Record<string, unknown> | null,
    ) => Promise<void>;
  } = {},
) {
  const dictionaries = (c: Context<TAppEnv>) =>
    loadDictionaries(c.var.db, def.editDictionaries, authOf(c).workspaceId);
  const afterSave = async (
    c: Context<TAppEnv>,
    item: Record<string, unknown>,
    before: Record<string, unknown> | null,
  ) => {
    try {
      await options.afterSave?.(c, item, before);
    } catch (error) {
      c.var.logger.error(`after saving a ${def.noun}`, { id: String(item.id), error: String(error) });
    }
  };
  const reads = new Hono<TAppEnv>()
    .use(requireAuth())
    /** GET /{entity}?page&per_page&sort_<prop>&filters[<prop>] → {data, total, current_page, per_page, last_page}. */
    .get("/", async (c) => {
      const query = parseListQuery(new URL(c.req.url).searchParams, def.columns, def.defaultSort);
      return c.json(await listRecords(c.var.db, def, authOf(c).workspaceId, query));
    })
    /** GET /{entity}/edit → what a create form needs. */
    .get("/edit", async (c) =>
      c.json({
        item: null,
        defaults: (await def.createDefaults?.(c.var.db, authOf(c).workspaceId)) ?? {},
        dictionaries: await dictionaries(c),
      }),
    )
    .get(`/:id${ID}`, async (c) => {
      const item = await getRecord(c.var.db, def, authOf(c).workspaceId, Number(c.req.param("id")));
      return c.json({ item, status: { error: false } });
    })
    .get(`/:id${ID}/edit`, async (c) => {
      const item = await getRecord(c.var.db, def, authOf(c).workspaceId, Number(c.req.param("id")));
      return c.json({ item, dictionaries: await dictionaries(c) });
    });
  if (options.isReadOnly) return reads;
  return reads
    .post("/", async (c) => {
      const item = await createRecord(c.var.db, def, authOf(c), await readJson(c));
      await afterSave(c, item, null);
      return c.json({ item, status: { error: false } }, 201);
    })
    .put(`/:id${ID}`, async (c) => {
      const id = Number(c.req.param("id"));
      const before = await getRecord(c.var.db, def, authOf(c).workspaceId, id);
      const item = await updateRecord(c.var.db, def, authOf(c), id, await readJson(c));
      await afterSave(c, item, before);
      return c.json({ item, status: { error: false } });
    })
    .delete(`/:id${ID}`, async (c) => {
      const force = ["1", "true"].includes(c.req.query("force") ?? "");
      const { storageKeys } = await deleteRecord(
        c.var.db,
        def,
        authOf(c).workspaceId,
        Number(c.req.param("id")),
        force,
      );
      for (const key of storageKeys) {
        await c.var.storage
          .delete(key)
          .catch((error) =>
            c.var.logger.error("could not remove a deleted record's file", { key, error: String(error) }),
          );
      }
      return c.json({ result: true, messages: ["Operation successful"] });
    });
}
