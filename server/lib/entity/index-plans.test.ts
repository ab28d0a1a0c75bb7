import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { contactsEntity } from "../../features/contacts/contacts.entity";
import { licensesEntity } from "../../features/licenses/licenses.entity";
import { productsEntity } from "../../features/products/products.entity";
import { shipmentsEntity } from "../../features/shipments/shipments.entity";
import { shippingFormsEntity } from "../../features/shipping-forms/shipping-forms.entity";
import { wikisEntity } from "../../features/wikis/wikis.entity";
import { createTestContext, type TTestContext } from "../../test/setup";
import { listSql, listWalkSql } from "./entity.service";
import { parseListQuery } from "./list-query";

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.database.close());

const ENTITIES = {
  contactsEntity,
  productsEntity,
  licensesEntity,
  wikisEntity,
  shippingFormsEntity,
  shipmentsEntity,
};

describe("every list query is served by an index (EXPLAIN QUERY PLAN)", () => {
  for (const [name, def] of Object.entries(ENTITIES)) {
    test(`${name}: the default sort and each declared sort, both directions`, async () => {
      const sortable = Object.entries(def.columns).filter(([, c]) => c.sortable);
      expect(sortable.map(([p]) => p)).toContain(def.defaultSort.prop);
      for (const query of ["", ...sortable.flatMap(([p]) => [`sort_${p}=asc`, `sort_${p}=desc`])]) {
        const parsed = parseListQuery(new URLSearchParams(query), def.columns, def.defaultSort);
        const { sql, params } = listSql(ctx.database.db, def, 1, parsed);
        const plan = await ctx.database.client.execute({
          sql: `EXPLAIN QUERY PLAN ${sql}`,
          args: params as never,
        });
        const details = plan.rows.map((r) => String(r.detail)).join(" | ");
        expect(details, `${name} ${query || "(default)"}: ${details}`).toMatch(/USING (COVERING )?INDEX/);
        expect(details, `${name} ${query || "(default)"}: ${details}`).not.toContain("TEMP B-TREE");
      }
    });
  }
});

describe("text filters on contacts use the trigram index", () => {
  test("a filter of three characters or more searches contacts_fts instead of scanning with LIKE", async () => {
    for (const prop of ["company", "tax_id"]) {
      const parsed = parseListQuery(
        new URLSearchParams(`filters[${prop}]=trading&sort_last_shipment_date=desc`),
        contactsEntity.columns,
        contactsEntity.defaultSort,
      );
      const { sql, params } = listSql(ctx.database.db, contactsEntity, 1, parsed);
      expect(sql).not.toContain(" like ");
      const plan = await ctx.database.client.execute({
        sql: `EXPLAIN QUERY PLAN ${sql}`,
        args: params as never,
      });
      const details = plan.rows.map((r) => String(r.detail)).join(" | ");
      expect(details, details).toContain("VIRTUAL TABLE INDEX");
    }
  });
});

describe("the sort-order walk of a broad filter reads the sort index in order", () => {
  test("no sort of the window or the page: contacts by date with a company filter, shipments by reference with a date range", async () => {
    for (const [def, query] of [
      [contactsEntity, "filters[company]=trading&sort_last_shipment_date=desc"],
      [contactsEntity, "filters[last_shipment_date]=2025-01-01..2025-06-30&filters[is_sensitive]=1"],
      [shipmentsEntity, "filters[ship_date]=2026-01-01..2026-03-31&sort_shipper_reference_number=asc"],
      [shipmentsEntity, "filters[tracking_number_1]=1Z&filters[status]=3&sort_ship_date=desc"],
    ] as const) {
      const parsed = parseListQuery(new URLSearchParams(query), def.columns, def.defaultSort);
      const walk = listWalkSql(ctx.database.db, def, 1, parsed);
      expect(walk, query).not.toBeNull();
      const plan = await ctx.database.client.execute({
        sql: `EXPLAIN QUERY PLAN ${walk?.sql}`,
        args: walk?.params as never,
      });
      const details = plan.rows.map((r) => String(r.detail)).join(" | ");
      expect(details, `${query}: ${details}`).toMatch(/USING (COVERING )?INDEX/);
      expect(details, `${query}: ${details}`).not.toContain("TEMP B-TREE");
      expect(details, `${query}: ${details}`).not.toContain("VIRTUAL TABLE");
    }
  });
});
