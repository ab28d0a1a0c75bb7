/**
 * Members of a workspace: invitations (mailed to the outbox, single-use, expiring, tamper-proof, one
 * workspace per person), listing, role changes, removal (sessions end at once), the last-admin rule
 * and the two-person release setting.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { invitations, settings_audit_log } from "../../../db/schema";
import { buildRegistration, call, invitationLinkFor, joinAs, json, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import { parseCsvObjects } from "../export-control/ear-tables";

let ctx: TTestContext;
let owner: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx);
});
afterAll(() => ctx.database.close());

const invite = (auth: Record<string, string>, overrides: Record<string, unknown> = {}) => {
  const person = buildRegistration();
  return call(ctx, auth, "POST", "/api/workspace/members", {
    email: person.email,
    title: person.title,
    name: person.name,
    surname: person.surname,
    roles: ["shipper"],
    ...overrides,
  });
};

const accept = (link: string, password = "a-good-password") => {
  const [, id, query] = link.match(/accept-invitation\/(\d+)\?(.*)$/)!;
  return ctx.app.request(`/api/invitations/${id}/accept?${query}`, json({ password }));
};

describe("members", () => {
  test("the registering user is admin and compliance", async () => {
    const res = await call(ctx, owner.auth, "GET", "/api/workspace/members");
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      data: { email: string; roles: string[]; last_sign_in_at: string }[];
    };
    const me = body.data.find((m) => m.email === owner.email)!;
    expect(me.roles).toEqual(["admin", "compliance"]);
    expect(me.last_sign_in_at).toBeTruthy();
  });

  test("an invitation is mailed; accepting it joins the workspace with the roles, once", async () => {
    const email = buildRegistration().email;
    const res = await invite(owner.auth, { email, roles: ["shipper", "compliance"] });
    expect(res.status).toBe(201);
    const link = invitationLinkFor(ctx, email);
    const [, id, query] = link.match(/accept-invitation\/(\d+)\?(.*)$/)!;
    const opened = await ctx.app.request(`/api/invitations/${id}?${query}`);
    expect(opened.status).toBe(200);
    expect(((await opened.json()) as { email: string }).email).toBe(email);
    const joined = await accept(link);
    expect(joined.status).toBe(201);
    const { user, token } = (await joined.json()) as { user: { workspace_id: number }; token: string };
    expect(user.workspace_id).toBe(owner.user.workspace_id);
    const members = (await (await call(ctx, owner.auth, "GET", "/api/workspace/members")).json()) as {
      data: { email: string; roles: string[] }[];
    };
    expect(members.data.find((m) => m.email === email)?.roles).toEqual(["compliance", "shipper"]);
    // The new member works in the same workspace.
    const contacts = await call(ctx, { authorization: `Bearer ${token}` }, "GET", "/api/contacts");
    expect(contacts.status).toBe(200);
    // Reused: refused.
    const again = await accept(link);
    expect(again.status).toBe(403);
    expect(((await again.json()) as { message: string }).message).toContain("already used");
  });

  test("a tampered or expired link is refused", async () => {
    const email = buildRegistration().email;
    expect((await invite(owner.auth, { email })).status).toBe(201);
    const link = invitationLinkFor(ctx, email);
    const tampered = link.replace(
      /signature=([0-9a-f])/,
      (_, c: string) => `signature=${c === "0" ? "1" : "0"}`,
    );
    expect((await accept(tampered)).status).toBe(403);
    const longer = link.replace(/expires=(\d+)/, (_, e: string) => `expires=${Number(e) + 86400}`);
    expect((await accept(longer)).status).toBe(403);
    const id = Number(link.match(/accept-invitation\/(\d+)/)![1]);
    // Past its 7 days (the stored expiry is what the signature covers, so move both back).
    const past = Math.floor(Date.now() / 1000) - 60;
    await ctx.database.db.update(invitations).set({ expires_at: past }).where(eq(invitations.id, id));
    const expired = await accept(link.replace(/expires=\d+/, `expires=${past}`));
    expect(expired.status).toBe(403);
    expect((await accept(link)).status).toBe(403);
  });

  test("an address with an account in another workspace cannot be invited", async () => {
    const other = await signUp(ctx);
    const res = await invite(owner.auth, { email: other.email });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toContain("another workspace");
    const own = await invite(owner.auth, { email: owner.email });
    expect(own.status).toBe(409);
    expect(((await own.json()) as { message: string }).message).toContain("already a member");
  });

  test("invalid input is a 422 naming the field", async () => {
    const res = await invite(owner.auth, { roles: [] });
    expect(res.status).toBe(422);
    const bad = await invite(owner.auth, { roles: ["boss"] });
    expect(bad.status).toBe(422);
  });

  test("only an admin invites, changes roles or removes; a shipper is told the role", async () => {
    const shipper = await joinAs(ctx, owner, ["shipper"]);
    const res = await invite(shipper.auth);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toContain("Admin role");
    const put = await call(ctx, shipper.auth, "PUT", `/api/workspace/members/${owner.user.id}`, {
      roles: ["shipper"],
    });
    expect(put.status).toBe(403);
  });

  test("removing a member ends their sessions at once and stops sign-in; records stay", async () => {
    const shipper = await joinAs(ctx, owner, ["shipper"]);
    const created = await call(ctx, shipper.auth, "POST", "/api/wikis", {
      name: "Shipper memo",
      description: "x",
    });
    expect(created.status).toBeLessThan(300);
    const wikiId = ((await created.json()) as { item: { id: number } }).item.id;
    const removed = await call(ctx, owner.auth, "DELETE", `/api/workspace/members/${shipper.user.id}`);
    expect(removed.status).toBe(200);
    expect((await call(ctx, shipper.auth, "GET", "/api/contacts")).status).toBe(401);
    const login = await ctx.app.request(
      "/api/login",
      json({ email: shipper.email, password: shipper.password }),
    );
    expect(login.status).toBe(401);
    expect((await call(ctx, owner.auth, "GET", `/api/wikis/${wikiId}`)).status).toBe(200);
    // Someone else's member is a 404.
    const stranger = await signUp(ctx);
    expect((await call(ctx, stranger.auth, "DELETE", `/api/workspace/members/${owner.user.id}`)).status).toBe(
      404,
    );
  });

  test("a removed member invited again returns as the same person, with the new roles and password", async () => {
    const shipper = await joinAs(ctx, owner, ["shipper"]);
    const draft = await call(ctx, shipper.auth, "POST", "/api/shipments");
    expect(draft.status).toBe(201);
    const shipmentId = ((await draft.json()) as { item: { id: number } }).item.id;
    expect((await call(ctx, owner.auth, "DELETE", `/api/workspace/members/${shipper.user.id}`)).status).toBe(
      200,
    );

    // Invited back (the admin may correct the name and choose other roles).
    const again = await invite(owner.auth, {
      email: shipper.email,
      name: "Returning",
      roles: ["compliance"],
    });
    expect(again.status).toBe(201);
    // The old password no longer signs in until the link is used.
    const before = await ctx.app.request(
      "/api/login",
      json({ email: shipper.email, password: shipper.password }),
    );
    expect(before.status).toBe(401);
    const link = invitationLinkFor(ctx, shipper.email);
    const joined = await accept(link, "a-new-password-1");
    expect(joined.status).toBe(201);
    const { user, token } = (await joined.json()) as { user: { id: number; name: string }; token: string };
    expect(user.id).toBe(shipper.user.id);
    expect(user.name).toBe("Returning");
    const auth = { authorization: `Bearer ${token}` };
    expect((await call(ctx, auth, "GET", "/api/contacts")).status).toBe(200);
    // The new roles, not the old ones: compliance only, so no shipment writes.
    expect((await call(ctx, auth, "POST", "/api/shipments")).status).toBe(403);
    const members = (await (await call(ctx, owner.auth, "GET", "/api/workspace/members")).json()) as {
      data: { id: number; roles: string[] }[];
    };
    expect(members.data.find((m) => m.id === shipper.user.id)?.roles).toEqual(["compliance"]);
    // What they created before is still theirs.
    const shipment = (await (await call(ctx, owner.auth, "GET", `/api/shipments/${shipmentId}`)).json()) as {
      item: { user_id: number };
    };
    expect(shipment.item.user_id).toBe(shipper.user.id);
    // Signing in works with the new password only.
    const old = await ctx.app.request(
      "/api/login",
      json({ email: shipper.email, password: shipper.password }),
    );
    expect(old.status).toBe(401);
    const fresh = await ctx.app.request(
      "/api/login",
      json({ email: shipper.email, password: "a-new-password-1" }),
    );
    expect(fresh.status).toBe(200);
    // Back in the workspace: inviting them once more is "already a member", and the link is spent.
    const third = await invite(owner.auth, { email: shipper.email });
    expect(third.status).toBe(409);
    expect(((await third.json()) as { message: string }).message).toContain("already a member");
    expect((await accept(link, "yet-another-password")).status).toBe(403);
  });

  test("a member removed from another workspace cannot be invited here", async () => {
    const otherAdmin = await signUp(ctx);
    const theirs = await joinAs(ctx, otherAdmin, ["shipper"]);
    expect(
      (await call(ctx, otherAdmin.auth, "DELETE", `/api/workspace/members/${theirs.user.id}`)).status,
    ).toBe(200);
    const res = await invite(owner.auth, { email: theirs.email });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toContain("another workspace");
  });

  test("the last admin can be neither demoted nor removed", async () => {
    const ws = await signUp(ctx);
    const demote = await call(ctx, ws.auth, "PUT", `/api/workspace/members/${ws.user.id}`, {
      roles: ["shipper"],
    });
    expect(demote.status).toBe(409);
    expect(((await demote.json()) as { message: string }).message).toContain("last admin");
    const remove = await call(ctx, ws.auth, "DELETE", `/api/workspace/members/${ws.user.id}`);
    expect(remove.status).toBe(409);
    const second = await joinAs(ctx, ws, ["admin"]);
    const ok = await call(ctx, ws.auth, "PUT", `/api/workspace/members/${ws.user.id}`, {
      roles: ["compliance"],
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { member: { roles: string[] } }).member.roles).toEqual(["compliance"]);
    // The demoted admin's open session loses the right at once.
    expect((await invite(ws.auth)).status).toBe(403);
    expect((await invite(second.auth)).status).toBe(201);
  });

  test("two admins demoting and removing each other at once leave the workspace an admin", async () => {
    const first = await signUp(ctx);
    const second = await joinAs(ctx, first, ["admin"]);
    const [demoted, removed] = await Promise.all([
      call(ctx, first.auth, "PUT", `/api/workspace/members/${second.user.id}`, { roles: ["shipper"] }),
      call(ctx, second.auth, "DELETE", `/api/workspace/members/${first.user.id}`),
    ]);
    expect([demoted.status, removed.status].sort()).toEqual([200, 409]);
    const members = await call(
      ctx,
      demoted.status === 200 ? first.auth : second.auth,
      "GET",
      "/api/workspace/members",
    );
    const admins = ((await members.json()) as { data: { roles: string[] }[] }).data.filter((m) =>
      m.roles.includes("admin"),
    );
    expect(admins).toHaveLength(1);
  });

  test("invitations an admin sent stop working when they are removed or lose the Admin role", async () => {
    const first = await signUp(ctx);
    const second = await joinAs(ctx, first, ["admin"]);
    const third = await joinAs(ctx, first, ["admin"]);
    const sentBySecond = buildRegistration();
    const sentByThird = buildRegistration();
    for (const [who, person] of [
      [second, sentBySecond],
      [third, sentByThird],
    ] as const) {
      const res = await invite(who.auth, { email: person.email, roles: ["admin"] });
      expect(res.status).toBe(201);
    }
    expect((await call(ctx, first.auth, "DELETE", `/api/workspace/members/${second.user.id}`)).status).toBe(
      200,
    );
    expect(
      (await call(ctx, first.auth, "PUT", `/api/workspace/members/${third.user.id}`, { roles: ["shipper"] }))
        .status,
    ).toBe(200);
    expect((await accept(invitationLinkFor(ctx, sentBySecond.email))).status).toBe(403);
    expect((await accept(invitationLinkFor(ctx, sentByThird.email))).status).toBe(403);
  });

  test("two invitations to one address accepted at once: one joins, the other is a 409, never a 500", async () => {
    const person = buildRegistration();
    const admin = await signUp(ctx);
    const other = await signUp(ctx);
    expect((await invite(admin.auth, { email: person.email })).status).toBe(201);
    const firstLink = invitationLinkFor(ctx, person.email);
    expect((await invite(other.auth, { email: person.email })).status).toBe(201);
    const secondLink = invitationLinkFor(ctx, person.email);
    const answers = await Promise.all([accept(firstLink), accept(secondLink)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(((await refused.json()) as { message: string }).message).toContain(
      "already has a Tradewinds account",
    );
  });

  test("two-person release cannot be switched on with one compliance member", async () => {
    const ws = await signUp(ctx);
    const on = await call(ctx, ws.auth, "PUT", "/api/workspace/settings", { two_person_release: true });
    expect(on.status).toBe(422);
    expect(((await on.json()) as { message: string }).message).toContain(
      "two members with the Compliance role",
    );
    const colleague = await joinAs(ctx, ws, ["compliance"]);
    const now = await call(ctx, ws.auth, "PUT", "/api/workspace/settings", { two_person_release: true });
    expect(now.status).toBe(200);
    expect(((await now.json()) as { two_person_release: boolean }).two_person_release).toBe(true);
    // With it on, the second compliance member cannot be removed or lose the role.
    const remove = await call(ctx, ws.auth, "DELETE", `/api/workspace/members/${colleague.user.id}`);
    expect(remove.status).toBe(409);
    const off = await call(ctx, colleague.auth, "PUT", "/api/workspace/settings", {
      two_person_release: false,
    });
    expect(off.status).toBe(403);
  });

  test("switching two-person release is on record in the screening audit export, and the record cannot be changed", async () => {
    const ws = await signUp(ctx);
    const colleague = await joinAs(ctx, ws, ["compliance"]);
    const put = (who: typeof ws, on: boolean) =>
      call(ctx, who.auth, "PUT", "/api/workspace/settings", { two_person_release: on });
    expect((await put(ws, true)).status).toBe(200);
    // Saving the same value again is not a change.
    expect((await put(ws, true)).status).toBe(200);
    expect((await put(ws, false)).status).toBe(200);
    // A refused switch (one compliance member left) writes nothing.
    expect((await call(ctx, ws.auth, "DELETE", `/api/workspace/members/${colleague.user.id}`)).status).toBe(
      200,
    );
    expect((await put(ws, true)).status).toBe(422);

    const exported = async (who: typeof ws) => {
      const res = await call(ctx, who.auth, "GET", "/api/screenings/audit");
      expect(res.status).toBe(200);
      return parseCsvObjects(await res.text(), "audit", ["Kind"]).filter((r) => r.Kind === "setting");
    };
    const rows = await exported(ws);
    expect(rows.map((r) => [r.User, r.Query, r.Outcome, r["Previous status"], r.Note])).toEqual([
      [ws.user.email, '{"two_person_release":true}', "on", "off", "Two-person release switched on"],
      [ws.user.email, '{"two_person_release":false}', "off", "on", "Two-person release switched off"],
    ]);
    expect(rows[0].Time <= rows[1].Time).toBe(true);
    // Another workspace's export does not show them.
    expect(await exported(owner)).toEqual([]);
    // Append-only: neither edited nor deleted, nor replaced.
    const [first] = await ctx.database.db
      .select()
      .from(settings_audit_log)
      .where(eq(settings_audit_log.workspace_id, ws.user.workspace_id));
    for (const statement of [
      `update settings_audit_log set value = 'false' where id = ${first.id}`,
      `delete from settings_audit_log where id = ${first.id}`,
      `insert or replace into settings_audit_log (id, workspace_id, setting, value) values (${first.id}, 1, 'x', '1')`,
    ]) {
      await expect(ctx.database.client.execute(statement)).rejects.toThrow(
        "settings_audit_log is append-only",
      );
    }
  });

  test("a withdrawn invitation's link stops working", async () => {
    const email = buildRegistration().email;
    const res = await invite(owner.auth, { email });
    const { invitation } = (await res.json()) as { invitation: { id: number } };
    const withdrawn = await call(
      ctx,
      owner.auth,
      "DELETE",
      `/api/workspace/members/invitations/${invitation.id}`,
    );
    expect(withdrawn.status).toBe(200);
    expect((await accept(invitationLinkFor(ctx, email))).status).toBe(403);
  });
});
