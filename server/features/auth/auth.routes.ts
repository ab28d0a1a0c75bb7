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
import { clearLoginFailures, consumeRateLimit } from "../../lib/rate-limit";
import { validate } from "../../lib/validate";
import { clientIp, isSameSiteRequest, readSessionToken, SESSION_COOKIE } from "./auth.middleware";
import {
  INVALID_RESET_LINK,
  isResetLinkGenuine,
  registerUser,
  requestPasswordReset,
  resetPassword,
  toPublicUser,
  verifyCredentials,
  verifyEmail,
} from "./auth.service";
import { knownDeviceOf, rememberDevice } from "./device";
import { createSession, invalidateSession, REMEMBER_ME_SECONDS, sessionIdFromToken } from "./session.service";

const deps = (c: Context<TAppEnv>) => ({
  db: c.var.db,
  env: c.var.env,
  mailer: c.var.mailer,
  secret: c.var.secret,
});

/** The per-IP limit (many accounts tried from one address) is this many times AUTH_RATE_LIMIT. */
const IP_FACTOR = 5;
/** The account-wide limit (one account tried from many addresses) is this many times AUTH_RATE_LIMIT. */
const ACCOUNT_FACTOR = 10;

/**
 * Login throttling in OWASP's spirit (docs/decisions/005-login-throttling.md): attempts count per
 * (IP, account), per IP, and per account from everywhere at a slower rate, so guessing stays slow
 * however it is spread. A browser holding this account's device cookie (it logged in before) is
 * counted on its own instead: strangers filling the account-wide limit cannot lock its owner out.
 */
async function limitLogin(c: Context<TAppEnv>, email: string): Promise<void> {
  const limit = c.var.env.authRateLimit;
  const device = knownDeviceOf(c, email);
  if (device) return consumeRateLimit(c.var.db, [`login:device:${device}`], limit);
  const ip = clientIp(c);
  await consumeRateLimit(c.var.db, [`login:ip-account:${ip}:${email}`], limit);
  await consumeRateLimit(c.var.db, [`login:ip:${ip}`], limit * IP_FACTOR);
  await consumeRateLimit(c.var.db, [`login:account:${email}`], limit * ACCOUNT_FACTOR);
}

/** Per (IP, address) and per IP: a stranger elsewhere cannot use up anyone else's attempts. */
async function limitByIp(c: Context<TAppEnv>, action: string, account: string): Promise<void> {
  const limit = c.var.env.authRateLimit;
  const ip = clientIp(c);
  await consumeRateLimit(c.var.db, [`${action}:ip-account:${ip}:${account}`], limit);
  await consumeRateLimit(c.var.db, [`${action}:ip:${ip}`], limit * IP_FACTOR);
}

/** True while an address may get another reset mail; past the limit the mail is quietly not sent. */
async function mayMailAccount(c: Context<TAppEnv>, email: string): Promise<boolean> {
  try {
    await consumeRateLimit(c.var.db, [`forgot:account:${email}`], c.var.env.authRateLimit);
    return true;
  } catch (error) {
    if (error instanceof AppError && error.code === "RATE_LIMITED") return false;
    throw error;
  }
}

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
 * GET /auth/logout opened directly (typed in, bookmarked, a new tab): a page whose form POSTs to
 * /auth/logout, submitted by a nonce'd script at once (and by its button without JavaScript). A GET
 * never logs out, so another site cannot log anyone out with a link or an image.
 */
export function logoutPage(c: Context<TAppEnv>) {
  c.header("Cache-Control", "no-store");
  const nonce = c.var.nonce;
  return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Logout · Tradewinds</title></head>
<body style="font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0;color:#0f172a">
<main><h1 style="font-size:1.25rem">Logging out…</h1>
<form method="post" action="/auth/logout" id="logout"><button type="submit" style="padding:.5rem 1rem;border-radius:.375rem;border:1px solid #cbd5e1;background:#12405a;color:#fff">Log out</button></form></main>
<script nonce="${nonce}">document.getElementById("logout").submit();</script>
</body></html>`);
}

/**
 * POST /auth/logout (the form above): ends the session, clears the cookie, goes to the login page. A
 * cross-site form post is refused, so no other site can log the user out.
 */
export async function logoutSubmit(c: Context<TAppEnv>) {
  if (!isSameSiteRequest(c)) throw new AppError("FORBIDDEN", "Cross-origin request refused");
  await endSession(c);
  c.header("Cache-Control", "no-store");
  return c.redirect("/auth/login", 303);
}

/** Registers a new account (and its workspace); shared by the JSON API and the no-JavaScript form. */
export async function register(c: Context<TAppEnv>, input: z.output<typeof ZRegisterInput>): Promise<void> {
  await limitByIp(c, "register", input.email);
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
  await limitLogin(c, email);
  const user = await verifyCredentials(c.var.db, email, password);
  if (!user) throw new AppError("UNAUTHENTICATED", "Login failed");
  return startSession(c, user, rememberMe);
}

/** Starts a session for a user whose identity is proven and sets the twsession cookie. */
export async function startSession<T extends { id: number; email: string }>(
  c: Context<TAppEnv>,
  user: T,
  rememberMe: boolean,
) {
  const { token } = await createSession(c.var.db, user.id, rememberMe);
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    path: "/",
    secure: c.var.env.appUrl.startsWith("https://"),
    ...(rememberMe ? { maxAge: REMEMBER_ME_SECONDS } : {}),
  });
  rememberDevice(c, user.email);
  return { user, token };
}

/** Public account calls: register, login, logout, forgot/reset password, verify e-mail. */
export const authRoutes = new Hono<TAppEnv>()
  /**
   * POST /register → 201 {registered, messages}, the same for a new address and one that already has
   * an account (its owner is told by mail), so the answer reveals no accounts.
   */
  .post("/register", validate("json", ZRegisterInput), async (c) => {
    await register(c, c.req.valid("json"));
    return c.json({ registered: true, messages: ["Registration successful"] }, 201);
  })
  /** POST /login → {user, token} and the twsession cookie; 401 'Login failed' otherwise. */
  .post("/login", validate("json", ZLoginInput), async (c) => {
    const { user, token } = await logIn(c, c.req.valid("json"));
    return c.json({ user: toPublicUser(user), token, messages: ["Login successful"] });
  })
  /**
   * POST /logout → 200 with or without a session; the session is deleted server-side. A cookie-only
   * call must come from our own origin, so another site cannot log anyone out.
   */
  .post("/logout", async (c) => {
    if (readSessionToken(c)?.via === "cookie" && !isSameSiteRequest(c)) {
      throw new AppError("FORBIDDEN", "Cross-origin request refused");
    }
    await endSession(c);
    return c.json({ message: "Logged out" });
  })
  /** GET /logout → 405: logging out changes state, so it takes a POST. */
  .get("/logout", (c) => {
    c.header("Allow", "POST");
    return c.json({ message: "Log out with POST /api/logout." }, 405);
  })
  /** POST /forgot/password → always the same 200, whether or not the address has an account. */
  .post("/forgot/password", validate("json", ZForgotPasswordInput), async (c) => {
    const { email } = c.req.valid("json");
    await limitByIp(c, "forgot", email);
    // Past the per-address mail limit (a mail flood) the answer stays the same; no mail goes out.
    if (await mayMailAccount(c, email)) {
      // Not awaited: looking the account up and sending its mail would make a known address answer
      // measurably later than an unknown one. Both answer once the attempt is counted.
      void requestPasswordReset(deps(c), email).catch((error) =>
        c.var.logger.error("could not send the reset e-mail", { error: String(error) }),
      );
    }
    return c.json({ message: "Password reset email sent" });
  })
  /** POST /reset/password/user/{userID}?expires&signature {password} → 200, or 403 for a bad link. */
  .post("/reset/password/user/:userId{[0-9]+}", validate("json", ZResetPasswordInput), async (c) => {
    const userId = Number(c.req.param("userId"));
    const { expires, signature } = readResetLink(c);
    // A genuine link is single-use and unforgeable, so it is never throttled: a stranger's failed
    // attempts against the same (sequential) user id cannot block its owner. Failures count per IP.
    if (!(await isResetLinkGenuine(deps(c), userId, expires, signature))) {
      await limitByIp(c, "reset", String(userId));
    }
    const { email } = await resetPassword(deps(c), userId, expires, signature, c.req.valid("json").password);
    // The e-mailed link is proof a guessing stranger lacks: the account's login failures are
    // forgotten, and this browser becomes a known device, counted on its own from now on.
    await clearLoginFailures(c.var.db, email);
    rememberDevice(c, email);
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
