import { type Context, Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import type { z } from "zod";
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
  INVALID_RESET_LINK,
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

/**
 * Counts an attempt per IP and per account (its e-mail address, or its user id for a reset link);
 * 429 once either is over the limit.
 */
const limit = (c: Context<TAppEnv>, action: string, account?: { email: string } | { userId: number }) =>
  consumeRateLimit(
    c.var.db,
    [
      `${action}:ip:${clientIp(c)}`,
      ...(account && "email" in account ? [`${action}:email:${account.email}`] : []),
      ...(account && "userId" in account ? [`${action}:user:${account.userId}`] : []),
    ],
    c.var.env.authRateLimit,
  );

/**
 * The expires and signature of a reset link. A malformed one (no signature, a non-numeric expiry, an
 * overlong value) is refused like a bad signature, with the same 403: a link is either genuine or not.
 */
function readResetLink(c: Context<TAppEnv>): { expires: number; signature: string } {
  const expires = c.req.query("expires") ?? "";
  const signature = c.req.query("signature") ?? "";
  if (!/^\d{1,15}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) {
    throw new AppError("FORBIDDEN", INVALID_RESET_LINK);
  }
  return { expires: Number(expires), signature };
}

/** Ends the caller's session if there is one and clears the cookie; a missing session is fine too. */
async function endSession(c: Context<TAppEnv>): Promise<void> {
  const found = readSessionToken(c);
  if (found) await invalidateSession(c.var.db, sessionIdFromToken(found.token));
  deleteCookie(c, SESSION_COOKIE, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: c.var.env.appUrl.startsWith("https://"),
  });
}

/**
 * GET /auth/logout opened directly (typed in, bookmarked, a new tab): a server-rendered page could not
 * clear the browser's cookie, because the in-process API call's Set-Cookie never reaches the browser.
 * So the server answers it itself: end the session, clear the cookie, go to the login page. A
 * client-side navigation to /auth/logout never reaches here; its route calls GET /api/logout.
 */
export async function logoutPage(c: Context<TAppEnv>) {
  await endSession(c);
  c.header("Cache-Control", "no-store");
  return c.redirect("/auth/login", 302);
}

/** Registers a new account (and its workspace); shared by the JSON API and the no-JavaScript form. */
export async function register(c: Context<TAppEnv>, input: z.output<typeof ZRegisterInput>): Promise<void> {
  await limit(c, "register", { email: input.email });
  await registerUser(deps(c), input, c.var.logger.error);
}

/**
 * Checks the credentials, starts a session and sets the twsession cookie; 401 'Login failed'
 * otherwise. Shared by the JSON API and the no-JavaScript form.
 */
export async function logIn(
  c: Context<TAppEnv>,
  { email, password, rememberMe }: z.output<typeof ZLoginInput>,
) {
  await limit(c, "login", { email });
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
  return { user, token };
}

/** Public account calls: register, login, logout, forgot/reset password, verify e-mail. */
export const authRoutes = new Hono<TAppEnv>()
  /** POST /register → 201 {registered, messages}; a duplicate e-mail is a 422. */
  .post("/register", validate("json", ZRegisterInput), async (c) => {
    await register(c, c.req.valid("json"));
    return c.json({ registered: true, messages: ["Registration successful"] }, 201);
  })
  /** POST /login → {user, token} and the twsession cookie; 401 'Login failed' otherwise. */
  .post("/login", validate("json", ZLoginInput), async (c) => {
    const { user, token } = await logIn(c, c.req.valid("json"));
    return c.json({ user: toPublicUser(user), token, messages: ["Login successful"] });
  })
  /** GET /logout → 200 with or without a session; the session is deleted server-side. */
  .get("/logout", async (c) => {
    await endSession(c);
    return c.json({ message: "Logged out" });
  })
  /** POST /forgot/password → always the same 200, whether or not the address has an account. */
  .post("/forgot/password", validate("json", ZForgotPasswordInput), async (c) => {
    const { email } = c.req.valid("json");
    await limit(c, "forgot", { email });
    // Not awaited: looking the account up and sending its mail would make a known address answer
    // measurably later than an unknown one. Both answer once the attempt is counted.
    void requestPasswordReset(deps(c), email).catch((error) =>
      c.var.logger.error("could not send the reset e-mail", { error: String(error) }),
    );
    return c.json({ message: "Password reset email sent" });
  })
  /** POST /reset/password/user/{userID}?expires&signature {password} → 200, or 403 for a bad link. */
  .post("/reset/password/user/:userId{[0-9]+}", validate("json", ZResetPasswordInput), async (c) => {
    const userId = Number(c.req.param("userId"));
    await limit(c, "reset", { userId });
    const { expires, signature } = readResetLink(c);
    await resetPassword(deps(c), userId, expires, signature, c.req.valid("json").password);
    return c.json({ message: "Password reset successful" });
  })
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
