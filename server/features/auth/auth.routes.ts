import { type Context, Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import {
  ZForgotPasswordInput,
  ZLoginInput,
  ZRegisterInput,
  ZResetPasswordInput,
} from "../../../db/contracts/auth";
import type { TAppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { consumeRateLimit } from "../../lib/rate-limit";
import { validate } from "../../lib/validate";
import { clientIp, readSessionToken, SESSION_COOKIE } from "./auth.middleware";
import {
  registerUser,
  requestPasswordReset,
  resetPassword,
  toPublicUser,
  verifyCredentials,
  verifyEmail,
} from "./auth.service";
import { createSession, invalidateSession, REMEMBER_ME_SECONDS, sessionIdFromToken } from "./session.service";

const deps = (c: Context<TAppEnv>) => ({
  db: c.var.db,
  env: c.var.env,
  mailer: c.var.mailer,
  secret: c.var.secret,
});

/** Counts an attempt per IP and per e-mail address; 429 once either is over the limit. */
const limit = (c: Context<TAppEnv>, action: string, email?: string) =>
  consumeRateLimit(
    c.var.db,
    [`${action}:ip:${clientIp(c)}`, ...(email ? [`${action}:email:${email}`] : [])],
    c.var.env.authRateLimit,
  );

const ZLinkQuery = z.object({
  expires: z.coerce.number().int(),
  signature: z.string().max(128),
});

/** Public account calls: register, login, logout, forgot/reset password, verify e-mail. */
export const authRoutes = new Hono<TAppEnv>()
  /** POST /register → 201 {registered, messages}; a duplicate e-mail is a 422. */
  .post("/register", validate("json", ZRegisterInput), async (c) => {
    const input = c.req.valid("json");
    await limit(c, "register", input.email);
    await registerUser(deps(c), input, c.var.logger.error);
    return c.json({ registered: true, messages: ["Registration successful"] }, 201);
  })
  /** POST /login → {user, token} and the twsession cookie; 401 'Login failed' otherwise. */
  .post("/login", validate("json", ZLoginInput), async (c) => {
    const { email, password, rememberMe } = c.req.valid("json");
    await limit(c, "login", email);
    const user = await verifyCredentials(c.var.db, email, password);
    if (!user) throw new AppError("UNAUTHENTICATED", "Login failed");
    const { token } = await createSession(c.var.db, user.id, rememberMe);
    setCookie(c, SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: "Lax",
      path: "/",
      secure: c.var.env.appUrl.startsWith("https://"),
      ...(rememberMe ? { maxAge: REMEMBER_ME_SECONDS } : {}),
    });
    return c.json({ user: toPublicUser(user), token, messages: ["Login successful"] });
  })
  /** GET /logout → 200 with or without a session; the session is deleted server-side. */
  .get("/logout", async (c) => {
    const found = readSessionToken(c);
    if (found) await invalidateSession(c.var.db, sessionIdFromToken(found.token));
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.json({ message: "Logged out" });
  })
  /** POST /forgot/password → always the same 200, whether or not the address has an account. */
  .post("/forgot/password", validate("json", ZForgotPasswordInput), async (c) => {
    const { email } = c.req.valid("json");
    await limit(c, "forgot", email);
    await requestPasswordReset(deps(c), email).catch((error) =>
      c.var.logger.error("could not send the reset e-mail", { error: String(error) }),
    );
    return c.json({ message: "Password reset email sent" });
  })
  /** POST /reset/password/user/{userID}?expires&signature {password} → 200, or 403 for a bad link. */
  .post(
    "/reset/password/user/:userId{[0-9]+}",
    validate("query", ZLinkQuery),
    validate("json", ZResetPasswordInput),
    async (c) => {
      await limit(c, "reset");
      const { expires, signature } = c.req.valid("query");
      await resetPassword(
        deps(c),
        Number(c.req.param("userId")),
        expires,
        signature,
        c.req.valid("json").password,
      );
      return c.json({ message: "Password reset successful" });
    },
  )
  /** GET /verify/email/user?id&expires&signature: marks the address verified, then back to the app. */
  .get("/verify/email/user", async (c) => {
    const ok = await verifyEmail(
      deps(c),
      Number(c.req.query("id")),
      Number(c.req.query("expires")),
      c.req.query("signature") ?? "",
    );
    return c.redirect(`/user/account?verified=${ok ? 1 : 0}`, 302);
  });
