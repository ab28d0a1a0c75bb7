import { createRoute, lazyRouteComponent, redirect } from "@tanstack/react-router";
import { numberOrUndefined, shortStringOrUndefined, stringOrUndefined } from "../lib/list-search";
import { forgetOfflinePages } from "../lib/offline";
import { safeNext } from "../lib/session";
import { rootRoute } from "./root";

// The auth routes (spec section 2). Their screens (./auth-routes) load lazily: the forms, zod and
// the form library stay out of the JavaScript every other screen downloads first.
const authScreens = () => import("./auth-routes");

const title = (text: string) => () => ({ meta: [{ title: `${text} · Tradewinds` }] });

export const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/auth/login",
  validateSearch: (raw: Record<string, unknown>): { next?: string; error?: string } => ({
    next: stringOrUndefined(raw.next),
    // Set by the server when the no-JavaScript form post failed (server/features/auth/auth.forms.ts).
    error: shortStringOrUndefined(raw.error, 300),
  }),
  staticData: { title: "Log in" },
  head: title("Log in"),
  // A signed-in visitor goes straight on to `next` or the account page (spec section 2).
  beforeLoad: ({ context, search }) => {
    if (context.user) throw redirect({ href: safeNext(search.next) ?? "/user/account" });
  },
  component: lazyRouteComponent(authScreens, "LoginScreen"),
});

const logoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/auth/logout",
  // Logs out on the server (200 or 401 both mean logged out), forgets the user, then goes to login.
  // beforeLoad also runs when a link is preloaded on hover or focus (defaultPreload "intent"): that must
  // not log anyone out. A direct visit never gets here: the server answers GET /auth/logout itself
  // with a page that posts. Logging out is a POST, so no other site can force it.
  beforeLoad: async ({ context, preload }) => {
    if (preload) return;
    await context.api.send("POST", "/logout").catch(() => undefined);
    context.session.user = null;
    await forgetOfflinePages();
    throw redirect({ to: "/auth/login", search: { next: undefined } });
  },
});

export const registerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/auth/register",
  // Set by the server after a no-JavaScript form post (server/features/auth/auth.forms.ts).
  validateSearch: (raw: Record<string, unknown>): { registered?: number; error?: string } => ({
    // The router reads `?registered=1` as the number 1.
    registered: numberOrUndefined(raw.registered),
    error: shortStringOrUndefined(raw.error, 300),
  }),
  staticData: { title: "Register" },
  head: title("Register"),
  component: lazyRouteComponent(authScreens, "RegisterScreen"),
});

export const forgotRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/auth/forgot-password",
  staticData: { title: "Forgot password" },
  head: title("Forgot password"),
  component: lazyRouteComponent(authScreens, "ForgotScreen"),
});

export const resetRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/auth/reset-password/$id",
  validateSearch: (raw: Record<string, unknown>): { expires?: number; signature?: string } => ({
    expires: numberOrUndefined(raw.expires),
    signature: stringOrUndefined(raw.signature),
  }),
  staticData: { title: "Reset password" },
  head: title("Reset password"),
  component: lazyRouteComponent(authScreens, "ResetScreen"),
});

/** The e-mailed invitation to join a workspace: the invitee chooses a password and is signed in. */
export const acceptInvitationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/auth/accept-invitation/$id",
  validateSearch: (raw: Record<string, unknown>): { expires?: number; signature?: string } => ({
    expires: numberOrUndefined(raw.expires),
    signature: stringOrUndefined(raw.signature),
  }),
  staticData: { title: "Join your workspace" },
  head: title("Join your workspace"),
  component: lazyRouteComponent(authScreens, "AcceptInvitationScreen"),
});

export const authRoutes = [
  loginRoute,
  logoutRoute,
  registerRoute,
  forgotRoute,
  resetRoute,
  acceptInvitationRoute,
];
