import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SMTPServer } from "smtp-server";
import { buildRegistration, json } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";

type TReceived = { from: string; to: string[]; raw: string };

// A real SMTP server in this process: the app speaks SMTP to it exactly as to a production relay.
const received: TReceived[] = [];
let smtp: SMTPServer;
let port = 0;
let ctx: TTestContext;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onAuth: (auth, _session, callback) =>
      auth.username === "mailer" && auth.password === "s3cret"
        ? callback(null, { user: "mailer" })
        : callback(new Error("Invalid username or password")),
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => {
        raw += chunk.toString("utf8");
      });
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  port = (smtp.server.address() as { port: number }).port;
  ctx = await createTestContext({
    SMTP_URL: `smtp://mailer:s3cret@127.0.0.1:${port}`,
    MAIL_FROM: "Tradewinds <no-reply@tradewinds.test>",
  });
});
afterAll(async () => {
  ctx.database.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const linkIn = (raw: string) => {
  const unfolded = raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  return new URL(/(http:\/\/localhost:\d+\/[^\s"<>]+)/.exec(unfolded)![1]);
};
const waitForMail = async (to: string, subject: string) => {
  for (let i = 0; i < 100; i++) {
    const mail = received.find((m) => m.to.includes(to) && m.raw.includes(subject));
    if (mail) return mail;
    await Bun.sleep(20);
  }
  throw new Error(`no mail "${subject}" to ${to}`);
};

describe("mail over real SMTP", () => {
  test("register → the verification mail arrives at the SMTP server → its link verifies", async () => {
    const reg = buildRegistration();
    expect((await ctx.app.request("/api/register", json(reg))).status).toBe(201);
    const mail = await waitForMail(reg.email, "Verify your e-mail address for Tradewinds");
    expect(mail.from).toBe("no-reply@tradewinds.test");
    expect(mail.raw).toContain("Content-Type: text/plain");
    expect(mail.raw).toContain("Content-Type: text/html");
    const link = linkIn(mail.raw);
    expect(link.pathname).toBe("/api/verify/email/user");
    const res = await ctx.app.request(`${link.pathname}${link.search}`);
    expect(res.headers.get("location")).toBe("/user/account?verified=1");
    const login = await ctx.app.request("/api/login", json({ email: reg.email, password: reg.password }));
    const { user } = (await login.json()) as { user: { email_verified_at: string | null } };
    expect(user.email_verified_at).not.toBeNull();
  });

  test("forgot → the reset mail arrives → its link resets → the old password no longer logs in", async () => {
    const reg = buildRegistration();
    await ctx.app.request("/api/register", json(reg));
    await ctx.app.request("/api/forgot/password", json({ email: reg.email }));
    const mail = await waitForMail(reg.email, "Reset your Tradewinds password");
    const link = linkIn(mail.raw);
    const userId = link.pathname.split("/").pop();
    const reset = await ctx.app.request(
      `/api/reset/password/user/${userId}${link.search}`,
      json({ password: "fresh password 1" }),
    );
    expect(reset.status).toBe(200);
    expect(
      (await ctx.app.request("/api/login", json({ email: reg.email, password: reg.password }))).status,
    ).toBe(401);
    expect(
      (await ctx.app.request("/api/login", json({ email: reg.email, password: "fresh password 1" }))).status,
    ).toBe(200);
  });
});
