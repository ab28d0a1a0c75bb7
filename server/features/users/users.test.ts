import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { users } from "../../../db/schema";
import { json, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.database.close());

const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 1, 2, 3,
]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1]);

const upload = (path: string, field: string, file: File, headers: Record<string, string>) => {
  const form = new FormData();
  form.append(field, file);
  return ctx.app.request(path, { method: "POST", body: form, headers });
};

describe("profile", () => {
  test("GET /api/user returns the user without secrets", async () => {
    const who = await signUp(ctx);
    const res = await ctx.app.request("/api/user", { headers: who.auth });
    const { user } = (await res.json()) as { user: Record<string, unknown> };
    expect(user).toMatchObject({
      email: who.email,
      name: "Ada",
      title: "Ms.",
      image_url: null,
      signature_url: null,
    });
    expect(Object.keys(user)).not.toContain("password_hash");
  });

  test("POST /api/user updates name, surname and title (None allowed on the account page)", async () => {
    const who = await signUp(ctx);
    const res = await ctx.app.request(
      "/api/user",
      json({ name: "Grace", surname: "Hopper", title: "None" }, who.auth),
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: { name: string; title: string } }).user).toMatchObject({
      name: "Grace",
      title: "None",
    });
  });

  test("profile validation uses the account page's messages", async () => {
    const who = await signUp(ctx);
    const res = await ctx.app.request("/api/user", json({ name: " ", surname: "", title: "Sir" }, who.auth));
    expect(res.status).toBe(422);
    const { errors } = (await res.json()) as { errors: Record<string, string[]> };
    expect(errors.title).toEqual(["Please pick your Title!"]);
    expect(errors.name).toEqual(["Please input your First Name!"]);
    expect(errors.surname).toEqual(["Please input your Last Name!"]);
  });

  test("changing the e-mail needs the current password, and the old address is told", async () => {
    const who = await signUp(ctx);
    const fresh = `moved.${Date.now()}@example.com`;
    const missing = await ctx.app.request("/api/user/changeEmail", json({ email: fresh }, who.auth));
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { errors: Record<string, string[]> }).errors.old_password).toBeTruthy();
    const wrong = await ctx.app.request(
      "/api/user/changeEmail",
      json({ email: fresh, old_password: "not my password" }, who.auth),
    );
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { errors: Record<string, string[]> }).errors.old_password).toEqual([
      "The current password is not correct.",
    ]);
    const [unchanged] = await ctx.database.db.select().from(users).where(eq(users.id, who.user.id));
    expect(unchanged.email).toBe(who.email);
    const ok = await ctx.app.request(
      "/api/user/changeEmail",
      json({ email: fresh, old_password: who.password }, who.auth),
    );
    expect(ok.status).toBe(200);
    const outbox = path.join(ctx.dataDir, "outbox");
    const mails = readdirSync(outbox).map((f) => readFileSync(path.join(outbox, f), "utf8"));
    const notice = mails.find(
      (m) => m.includes(`To: ${who.email}`) && m.includes("e-mail address was changed"),
    );
    expect(notice).toBeTruthy();
    expect(notice!.replace(/=\r?\n/g, "")).toContain(fresh);
  });

  test("changing the password tells the account's address", async () => {
    const who = await signUp(ctx);
    const res = await ctx.app.request(
      "/api/user/changePassword",
      json({ old_password: who.password, password: "a brand new secret" }, who.auth),
    );
    expect(res.status).toBe(200);
    const outbox = path.join(ctx.dataDir, "outbox");
    const mails = readdirSync(outbox).map((f) => readFileSync(path.join(outbox, f), "utf8"));
    expect(mails.some((m) => m.includes(`To: ${who.email}`) && m.includes("password was changed"))).toBe(
      true,
    );
  });

  test("changing the e-mail marks it unverified; a taken or invalid address is refused", async () => {
    const who = await signUp(ctx);
    const other = await signUp(ctx);
    const taken = await ctx.app.request(
      "/api/user/changeEmail",
      json({ email: other.email, old_password: who.password }, who.auth),
    );
    expect(taken.status).toBe(422);
    const invalid = await ctx.app.request(
      "/api/user/changeEmail",
      json({ email: "nope", old_password: who.password }, who.auth),
    );
    expect(((await invalid.json()) as { errors: Record<string, string[]> }).errors.email).toEqual([
      "The input is not valid E-mail!",
    ]);
    const fresh = `new.${Date.now()}@example.com`;
    const res = await ctx.app.request(
      "/api/user/changeEmail",
      json({ email: fresh.toUpperCase(), old_password: who.password }, who.auth),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { user: { email: string; email_verified_at: string | null } };
    expect(body.user.email).toBe(fresh);
    expect(body.user.email_verified_at).toBeNull();
    expect((await ctx.app.request("/api/login", json({ email: fresh, password: who.password }))).status).toBe(
      200,
    );
  });

  test("changing the password needs the right old one and ends every other session", async () => {
    const who = await signUp(ctx);
    const second = await ctx.app.request("/api/login", json({ email: who.email, password: who.password }));
    const secondToken = ((await second.json()) as { token: string }).token;
    const wrong = await ctx.app.request(
      "/api/user/changePassword",
      json({ old_password: "not it at all", password: "a new password" }, who.auth),
    );
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { errors: Record<string, string[]> }).errors.old_password).toBeDefined();
    const missing = await ctx.app.request(
      "/api/user/changePassword",
      json({ old_password: "", password: "" }, who.auth),
    );
    const missingErrors = ((await missing.json()) as { errors: Record<string, string[]> }).errors;
    expect(missingErrors.old_password).toEqual(["Please input your Password!"]);
    expect(missingErrors.password[0]).toBe("Please input your new Password!");
    const ok = await ctx.app.request(
      "/api/user/changePassword",
      json({ old_password: who.password, password: "a new password" }, who.auth),
    );
    expect(ok.status).toBe(200);
    expect((await ctx.app.request("/api/user", { headers: who.auth })).status).toBe(200);
    expect(
      (await ctx.app.request("/api/user", { headers: { authorization: `Bearer ${secondToken}` } })).status,
    ).toBe(401);
  });
});

describe("avatar and signature", () => {
  test("a PNG avatar and a JPEG signature are stored and served to their owner", async () => {
    const who = await signUp(ctx);
    const avatar = await upload("/api/user/uploadPicture", "photo", new File([PNG], "me.png"), who.auth);
    expect(avatar.status).toBe(200);
    const avatarBody = (await avatar.json()) as { user: { image_url: string }; messages: string[] };
    expect(avatarBody.messages).toEqual(["Avatar upload successfully."]);
    const signature = await upload(
      "/api/user/uploadSignature",
      "signature",
      new File([JPEG], "sig.jpg"),
      who.auth,
    );
    const signatureBody = (await signature.json()) as { user: { signature_url: string }; messages: string[] };
    expect(signatureBody.messages).toEqual(["Signature uploaded successfully."]);
    const image = await ctx.app.request(avatarBody.user.image_url, { headers: who.auth });
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG);
    const sig = await ctx.app.request(signatureBody.user.signature_url, { headers: who.auth });
    expect(sig.headers.get("content-type")).toBe("image/jpeg");
    // Another user sees their own (absent) image, never this one; nobody unauthenticated does.
    const other = await signUp(ctx);
    expect((await ctx.app.request(avatarBody.user.image_url, { headers: other.auth })).status).toBe(404);
    expect((await ctx.app.request(avatarBody.user.image_url)).status).toBe(401);
  });

  test("the avatar upload also takes the session as a query parameter", async () => {
    const who = await signUp(ctx);
    const res = await upload(
      `/api/user/uploadPicture?session=${who.token}`,
      "photo",
      new File([JPEG], "a.jpg"),
      {},
    );
    expect(res.status).toBe(200);
  });

  test("a text file named .png is refused by its content", async () => {
    const who = await signUp(ctx);
    const disguised = new File(["just some text, not an image"], "evil.png", { type: "image/png" });
    const res = await upload("/api/user/uploadPicture", "photo", disguised, who.auth);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toBe("You can only upload JPG/PNG file!");
  });

  test("an image of 2 MB or more is refused with the spec's message", async () => {
    const who = await signUp(ctx);
    const big = new Uint8Array(2 * 1024 * 1024);
    big.set(PNG);
    const res = await upload("/api/user/uploadSignature", "signature", new File([big], "big.png"), who.auth);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toBe("Image must smaller than 2MB!");
    const huge = new Uint8Array(5 * 1024 * 1024);
    huge.set(PNG);
    const tooLarge = await upload(
      "/api/user/uploadSignature",
      "signature",
      new File([huge], "huge.png"),
      who.auth,
    );
    // Far past the limit the body is cut off before it is read, with the same 422 and message.
    expect(tooLarge.status).toBe(422);
    const tooLargeBody = (await tooLarge.json()) as { message: string; errors: Record<string, string[]> };
    expect(tooLargeBody.message).toBe("Image must smaller than 2MB!");
    expect(tooLargeBody.errors.signature).toEqual(["Image must smaller than 2MB!"]);
  });

  test("an avatar just over 2 MB is a 422 with the spec's message, and nothing is stored", async () => {
    const who = await signUp(ctx);
    const over = new Uint8Array(2 * 1024 * 1024 + 1);
    over.set(JPEG);
    const res = await upload("/api/user/uploadPicture", "photo", new File([over], "big.jpg"), who.auth);
    expect(res.status).toBe(422);
    const body = (await res.json()) as { message: string; errors: Record<string, string[]> };
    expect(body.message).toBe("Image must smaller than 2MB!");
    expect(body.errors.photo).toEqual(["Image must smaller than 2MB!"]);
    const user = (await (await ctx.app.request("/api/user", { headers: who.auth })).json()) as {
      user: { image_url: string | null };
    };
    expect(user.user.image_url).toBeNull();
  });

  test("a missing file field is a 422 naming the field", async () => {
    const who = await signUp(ctx);
    const res = await upload("/api/user/uploadPicture", "wrong", new File([PNG], "a.png"), who.auth);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: Record<string, string[]> }).errors.photo).toBeDefined();
  });
});

describe("workspace isolation", () => {
  test("two registrations get two workspaces; each sees only its own members in the users dictionary", async () => {
    const a = await signUp(ctx, { name: "Alice" });
    const b = await signUp(ctx, { name: "Bob" });
    expect(a.user.workspace_id).not.toBe(b.user.workspace_id);
    const dict = async (headers: Record<string, string>) =>
      (
        (await (await ctx.app.request("/api/dictionary?dropdown_values[]=users", { headers })).json()) as {
          data: { users: { id: number; label: string }[] };
        }
      ).data.users;
    const aUsers = await dict(a.auth);
    const bUsers = await dict(b.auth);
    expect(aUsers.map((u) => u.id)).toEqual([a.user.id]);
    expect(bUsers.map((u) => u.id)).toEqual([b.user.id]);
    expect(aUsers[0].label).toBe(`Alice ${a.surname}`);
    // Without a session the workspace lists are empty, the reference lists are not.
    expect(await dict({})).toEqual([]);
  });

  test("B cannot change A's account: every call acts on the caller only", async () => {
    const a = await signUp(ctx, { name: "Alice" });
    const b = await signUp(ctx, { name: "Bob" });
    await ctx.app.request(
      "/api/user",
      json({ name: "Mallory", surname: "X", title: "Mr.", id: a.user.id }, b.auth),
    );
    const aNow = (await (await ctx.app.request("/api/user", { headers: a.auth })).json()) as {
      user: { name: string };
    };
    expect(aNow.user.name).toBe("Alice");
  });
});
