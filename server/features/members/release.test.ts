/**
 * Releasing a failed screening: only compliance clears it; with two-person release on, the member
 * who created the contact or created / last edited a shipment naming it cannot clear it alone, and
 * the audit trail records who asked, who released, the note and what the lists said.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TContactScreening } from "../../../db/contracts/screening";
import { buildContact, buildProduct, call, joinAs, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.database.close());

type TWho = { auth: Record<string, string>; user: { id: number } };

async function failingContact(as: TWho & { email?: string }) {
  const res = await call(
    ctx,
    as.auth,
    "POST",
    "/api/contacts",
    buildContact({ company: "Rosoboroneksport OAO" }),
  );
  expect(res.status).toBe(201);
  const contact = ((await res.json()) as { item: { id: number } }).item;
  const trade = await call(ctx, as.auth, "GET", `/api/screenings/trade?itemId=${contact.id}`);
  const screening = ((await trade.json()) as { item: TContactScreening }).item;
  expect(screening.status).toBe("failed");
  return { contactId: contact.id, resultId: screening.id };
}

const clear = (as: TWho, id: number, note = "Different company: checked the registry") =>
  call(ctx, as.auth, "POST", "/api/screenings/override", { id, status: "passed", note });

describe("release of a failed screening", () => {
  test("a shipper cannot clear a hit; compliance can, and the trail says who asked and who released", async () => {
    const admin = await signUp(ctx);
    const shipper = await joinAs(ctx, admin, ["shipper"]);
    const officer = await joinAs(ctx, admin, ["compliance"]);
    const { contactId, resultId } = await failingContact(shipper);
    const refused = await clear(shipper, resultId);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toContain("Compliance role");
    const byGet = await call(
      ctx,
      shipper.auth,
      "GET",
      `/api/screenings/override?id=${resultId}&status=passed&note=x`,
    );
    expect(byGet.status).toBe(403);
    const released = await clear(officer, resultId);
    expect(released.status).toBe(200);
    const history = await call(ctx, admin.auth, "GET", `/api/screenings/contact/${contactId}/history`);
    const text = await history.text();
    expect(text).toContain(shipper.email);
    expect(text).toContain(officer.email);
    expect(text).toContain("created the contact");
  });

  test("with the setting on, the member who last edited the contact cannot release it alone", async () => {
    const admin = await signUp(ctx);
    const shipper = await joinAs(ctx, admin, ["shipper"]);
    const officer = await joinAs(ctx, admin, ["compliance", "shipper"]);
    const on = await call(ctx, admin.auth, "PUT", "/api/workspace/settings", { two_person_release: true });
    expect(on.status).toBe(200);
    // The shipper creates a clean contact; the officer renames it to a listed company.
    const created = await call(
      ctx,
      shipper.auth,
      "POST",
      "/api/contacts",
      buildContact({ company: "Harbour Tools Ltd" }),
    );
    const contact = ((await created.json()) as { item: Record<string, unknown> & { id: number } }).item;
    const edited = await call(ctx, officer.auth, "PUT", `/api/contacts/${contact.id}`, {
      ...buildContact(),
      company: "Rosoboroneksport OAO",
    });
    expect(edited.status).toBe(200);
    const trade = await call(ctx, officer.auth, "GET", `/api/screenings/trade?itemId=${contact.id}`);
    const screening = ((await trade.json()) as { item: TContactScreening }).item;
    expect(screening.status).toBe("failed");
    const own = await clear(officer, screening.id);
    expect(own.status).toBe(403);
    expect(((await own.json()) as { message: string }).message).toContain("last edited the contact");
    expect((await clear(admin, screening.id)).status).toBe(200);
  });

  test("with one compliance member the setting stays off and that member releases alone", async () => {
    const admin = await signUp(ctx);
    const on = await call(ctx, admin.auth, "PUT", "/api/workspace/settings", { two_person_release: true });
    expect(on.status).toBe(422);
    const { resultId } = await failingContact(admin);
    expect((await clear(admin, resultId)).status).toBe(200);
  });

  test("with two compliance members and the setting on, the creator cannot release alone; the other can", async () => {
    const admin = await signUp(ctx);
    const second = await joinAs(ctx, admin, ["compliance", "shipper"]);
    const on = await call(ctx, admin.auth, "PUT", "/api/workspace/settings", { two_person_release: true });
    expect(on.status).toBe(200);
    // The second member created the contact: they may not clear it.
    const { resultId } = await failingContact(second);
    const own = await clear(second, resultId);
    expect(own.status).toBe(403);
    expect(((await own.json()) as { message: string }).message).toContain("Two-person release");
    expect((await clear(admin, resultId)).status).toBe(200);
    // The admin created this one, and a shipment naming it was last edited by the second member.
    const other = await failingContact(admin);
    const shipment = await call(ctx, second.auth, "POST", "/api/shipments", {});
    const id = ((await shipment.json()) as { item: { id: number; updated_at: string } }).item;
    const saved = await call(ctx, second.auth, "PUT", `/api/shipments/${id.id}`, {
      updated_at: id.updated_at,
      ultimate_consignee_id: other.contactId,
    });
    expect(saved.status).toBe(200);
    expect((await clear(admin, other.resultId)).status).toBe(403);
    expect((await clear(second, other.resultId)).status).toBe(403);
    // Switched off, the admin may release it.
    await call(ctx, admin.auth, "PUT", "/api/workspace/settings", { two_person_release: false });
    expect((await clear(admin, other.resultId, "Registry checked by the admin")).status).toBe(200);
    // The shipment shows who cleared its consignee, who asked, and the note.
    const releases = await call(ctx, second.auth, "GET", `/api/screenings/shipment/${id.id}/releases`);
    expect(releases.status).toBe(200);
    const [release] = (
      (await releases.json()) as {
        data: { user: string; note: string; asked_by: { email: string; as: string }[] }[];
      }
    ).data;
    expect(release).toMatchObject({ user: admin.email, note: "Registry checked by the admin" });
    expect(release.asked_by.map((a) => a.email).sort()).toEqual([admin.email, second.email].sort());
    const list = await call(ctx, admin.auth, "GET", "/api/shipments");
    const row = (
      (await list.json()) as { data: { id: number; updated_by: { email: string } | null }[] }
    ).data.find((r) => r.id === id.id);
    expect(row?.updated_by?.email).toBe(second.email);
  });

  test("overriding a licence hold on a line needs compliance, through the shipment or the line", async () => {
    const admin = await signUp(ctx);
    const shipper = await joinAs(ctx, admin, ["shipper"]);
    const product = await call(ctx, shipper.auth, "POST", "/api/products", buildProduct(3));
    const productId = ((await product.json()) as { item: { id: number } }).item.id;
    const created = await call(ctx, shipper.auth, "POST", "/api/shipments", {});
    const draft = ((await created.json()) as { item: { id: number; updated_at: string } }).item;
    const save = (as: TWho, updated_at: string, why: string) =>
      call(ctx, as.auth, "PUT", `/api/shipments/${draft.id}`, {
        updated_at,
        items: [{ product_id: productId, quantity: 1, override_justification: why }],
      });
    const refused = await save(shipper, draft.updated_at, "Licence checked by phone");
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toContain("Compliance role");
    const plain = await save(shipper, draft.updated_at, "");
    expect(plain.status).toBe(200);
    const saved = ((await plain.json()) as { item: { updated_at: string; items: { id: number }[] } }).item;
    const line = await call(
      ctx,
      shipper.auth,
      "PUT",
      `/api/export-control/shipments/${draft.id}/lines/${saved.items[0].id}`,
      {
        override_justification: "Licence checked by phone",
      },
    );
    expect(line.status).toBe(403);
    expect((await save(admin, saved.updated_at, "Licence checked by phone")).status).toBe(200);
  });
});
