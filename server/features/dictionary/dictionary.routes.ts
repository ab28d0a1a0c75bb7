import { Hono } from "hono";
import { DICTIONARY_NAMES, type TDictionaryName, ZDictionaryName } from "../../../db/contracts/dictionary";
import type { TAppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { optionalAuth } from "../auth/auth.middleware";
import { loadDictionaries } from "./dictionary.service";

/**
 * GET /api/dictionary?dropdown_values[]=countries&… → `{data: {countries: [{id, label}], …}}`.
 * Without dropdown_values every dictionary is returned; an unknown name is a 422 naming it.
 */
export const dictionaryRoutes = new Hono<TAppEnv>().get("/", async (c) => {
  const requested = [
    ...(c.req.queries("dropdown_values[]") ?? []),
    ...(c.req.queries("dropdown_values") ?? []).flatMap((v) => v.split(",")),
  ]
    .map((v) => v.trim())
    .filter(Boolean);
  const names: TDictionaryName[] = [];
  for (const value of requested.length ? requested : DICTIONARY_NAMES) {
    const parsed = ZDictionaryName.safeParse(value);
    if (!parsed.success) {
      throw new AppError("VALIDATION", parsed.error.issues[0].message, {
        errors: { dropdown_values: [parsed.error.issues[0].message] },
      });
    }
    if (!names.includes(parsed.data)) names.push(parsed.data);
  }
  // Reference lists are public; workspace lists (contacts, users, …) need a session and show only its workspace.
  const auth = await optionalAuth(c);
  const data = await loadDictionaries(c.var.db, names, auth?.workspaceId ?? null);
  return c.json({ data });
});
