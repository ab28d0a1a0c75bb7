import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { contacts, rpscreenings } from "../../../db/schema";
import { createLogger } from "../../lib/logger";
import { createServices } from "../../services";
import { buildContact, call, signUp } from "../../test/factories";
import { appOver, createTestContext, type TTestContext } from "../../test/setup";
import { checkListVersions } from "./list-watch";
import { parseListFiles, storeList } from "./lists.service";

const CSL_HEADER =
  "_id,source,entity_number,type,programs,name,title,addresses,federal_register_notice,start_date,end_date,standard_order,license_requirement,license_policy,call_sign,vessel_type,gross_tonnage,gross_registered_tonnage,vessel_flag,vessel_owner,remarks,source_list_url,alt_names,citizenships,dates_of_birth,nationalities,places_of_birth,source_information_url,ids";
const cslRow = (id: string, name: string) =>
  `${id},Entity List (EL) - Bureau of Industry and Security,,Entity,,${name},,"1 Harbour Road, Hong Kong",,2026-10-01,,,,,,,,,,,,,,,,,,,`;

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.database.close());

const statusOf = async (contactId: number) =>
  (
    await ctx.database.db
      .select({ status: rpscreenings.status })
      .from(rpscreenings)
      .where(eq(rpscreenings.contact_id, contactId))
  )[0]?.status;

test("a list imported by another process: the index is rebuilt and contacts saved since the import are screened again", async () => {
  const logger = createLogger("silent");
  const services = createServices(ctx.env, logger, ctx.database.db);
  const app = appOver(ctx, services);
  const owner = await signUp({ ...ctx, app });
  const save = async (company: string) => {
    const res = await call({ ...ctx, app }, owner.auth, "POST", "/api/contacts", buildContact({ company }));
    expect(res.status).toBe(201);
    return ((await res.json()) as { item: { id: number } }).item.id;
  };
  const early = await save("Long Standing Trading Ltd");
  // Saved long before the import: the importing command's own re-screen covers it.
  await ctx.database.db
    .update(contacts)
    .set({ updated_at: "2020-01-01T00:00:00.000Z" })
    .where(eq(contacts.id, early));
  expect(
    await checkListVersions({ db: ctx.database.db, registry: services.screening.registry, logger }),
  ).toBe(false);

  // Another process imports a list naming both companies; this one has not noticed yet.
  await storeList(
    ctx.database.db,
    "csl",
    parseListFiles("csl", [
      {
        name: "consolidated.csv",
        bytes: new TextEncoder().encode(
          `${CSL_HEADER}\n${cslRow("x1", "Long Standing Trading Ltd")}\n${cslRow("x2", "Saved In Between Trading Ltd")}\n`,
        ),
      },
    ]),
    "consolidated.csv",
  );
  const between = await save("Saved In Between Trading Ltd");
  await services.screening.rescreen.run([between], "save");
  expect(await statusOf(between)).toBe("passed");

  const deps = {
    db: ctx.database.db,
    registry: services.screening.registry,
    rescreen: services.screening.rescreen,
    logger,
  };
  expect(await checkListVersions(deps)).toBe(true);
  expect(await statusOf(between)).toBe("failed");
  expect(await statusOf(early)).toBe("passed");
  // Noticed once: the next check finds nothing new.
  expect(await checkListVersions(deps)).toBe(false);
});
