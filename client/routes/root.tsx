import {
  createRootRouteWithContext,
  HeadContent,
  Outlet,
  redirect,
  Scripts,
  useMatches,
  useRouterState,
} from "@tanstack/react-router";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { preload } from "react-dom";
import { isDebugOn } from "../components/app/debug-flag";
import { AppHeader } from "../components/app/header";
import { Kept } from "../components/app/kept";
import { isPublicPath } from "../components/app/nav";
import { ErrorScreen, PageNotFound } from "../components/app/screens";
import { MobileNav, Sidebar } from "../components/app/sidebar";
import { Toaster } from "../components/ui/sonner";
import { focusPageHeading } from "../lib/focus";
import { loadUser, useSessionExpired } from "../lib/session";
import { saveSidebarCollapsed } from "../lib/ui-prefs";
import type { TRouterContext } from "../router-context";

// Shown only with ?debug (client-side state): loads then.
const DebugPanel = lazy(() =>
  import("../components/app/debug-panel").then(({ DebugPanel }) => ({ default: DebugPanel })),
);

export type TStaticData = { title?: string };

declare module "@tanstack/react-router" {
  interface StaticDataRouteOption extends TStaticData {}
}

export const rootRoute = createRootRouteWithContext<TRouterContext>()({
  /**
   * The session gate (spec section 2): a logged-out visitor on a non-public path goes to
   * /auth/login with the path in `next` (not for the root). Runs on the server for the first page
   * and in the browser on each navigation, with the session cached in between.
   */
  beforeLoad: async ({ context, location }) => {
    const user = await loadUser(context.api, context.session);
    if (!user && !isPublicPath(location.pathname)) {
      throw redirect({
        to: "/auth/login",
        search: { next: location.pathname === "/" ? undefined : location.href },
      });
    }
    return { user };
  },
  head: () => ({
    meta: [
      { charSet: "utf-8" },
      { name: "viewport", content: "width=device-width, initial-scale=1" },
      { title: "Tradewinds" },
    ],
    links: [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }],
  }),
  component: RootDocument,
  errorComponent: ({ error }) => (
    <Document>
      <ErrorScreen message={error instanceof Error ? error.message : String(error)} />
    </Document>
  ),
  // Rendered inside the root component's Outlet, so the frame is already there.
  notFoundComponent: PageNotFound,
});

function RootDocument() {
  return (
    <Document>
      <Frame>
        <Outlet />
      </Frame>
    </Document>
  );
}

/** The whole HTML document: the router's head tags, the built stylesheet and entry module. */
function Document({ children }: { children: React.ReactNode }) {
  const { assets } = rootRoute.useRouteContext();
  return (
    <html lang="en">
      <head>
        <HeadContent />
        {assets.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} data-asset="style" />
        ))}
        {/* The entry's imports (React, the router, the app chunk) start downloading with the page. */}
        {assets.preloads?.map((href) => (
          <link key={href} rel="modulepreload" href={href} data-asset="preload" />
        ))}
      </head>
      <body className="min-h-dvh bg-background text-foreground antialiased">
        {children}
        {/* Below the 56 px header: a toast never covers the search or the user menu. */}
        <Toaster position="top-right" offset={{ top: 64 }} mobileOffset={{ top: 64 }} />
        {assets.scripts.map((src) => (
          <script key={src} type="module" src={src} data-asset="script" />
        ))}
        <Scripts />
      </body>
    </html>
  );
}

/** Sidebar + header + content, the frame every screen sits in. */
function Frame({ children }: { children: React.ReactNode }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const search = useRouterState({ select: (s) => s.location.search as Record<string, unknown> });
  const matches = useMatches();
  const title = [...matches].reverse().find((m) => m.staticData?.title)?.staticData.title ?? "Tradewinds";
  const { user, session, ui } = rootRoute.useRouteContext();
  // After hydration the browser's session store starts empty; seed it with the user the server saw.
  useEffect(() => {
    if (session.user === undefined) session.user = user;
  }, [session, user]);
  // The cookie-backed choice renders the same on the server as after hydration: no jump on load.
  const [isCollapsed, setIsCollapsed] = useState(ui.isSidebarCollapsed);
  const [showDebug, setShowDebug] = useState(false);
  useEffect(() => setShowDebug(isDebugOn(search)), [search]);
  // The resolved location changes once the new page has loaded and rendered, not when navigation starts.
  const resolvedPath = useRouterState({ select: (s) => s.resolvedLocation?.pathname ?? s.location.pathname });
  useFocusHeadingOnNavigation(resolvedPath);
  const toggle = () => {
    setIsCollapsed((was) => {
      saveSidebarCollapsed(!was);
      return !was;
    });
  };
  const isPublic = isPublicPath(pathname);
  // The sidebar's logo would ask React for this preload from inside kept markup, where a kept render
  // would lose it (see Kept): ask here, so every render has it.
  preload("/logo.svg", { as: "image" });
  return (
    <div className="flex min-h-dvh">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-3 py-2 text-sm text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to main content
      </a>
      {/* Kept: the server renders these once per set of inputs (see Kept for what must be listed). */}
      <Kept id="sidebar" inputs={[pathname, isCollapsed, isPublic, Boolean(user)]}>
        <Sidebar isCollapsed={isCollapsed} onToggle={toggle} isPublic={isPublic} isLoggedIn={Boolean(user)} />
      </Kept>
      <div className="flex min-w-0 flex-1 flex-col">
        <Kept id="header" inputs={[pathname, title, isPublic, Boolean(user), isPublic ? null : user]}>
          <AppHeader
            title={title}
            menu={<MobileNav isPublic={isPublic} isLoggedIn={Boolean(user)} />}
            user={isPublic ? null : user}
          />
        </Kept>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 p-4 outline-none sm:p-6" data-print-main>
          {children}
        </main>
      </div>
      {showDebug && (
        <Suspense fallback={null}>
          <DebugPanel />
        </Suspense>
      )}
      <SessionExpired />
    </div>
  );
}

const SessionExpiredDialog = lazy(() =>
  import("../components/app/session-expired").then(({ SessionExpiredDialog }) => ({
    default: SessionExpiredDialog,
  })),
);

/** Spec: a 401 logs the user out and offers a Log in button (the dialog loads when that happens). */
function SessionExpired() {
  const isExpired = useSessionExpired();
  if (!isExpired) return null;
  return (
    <Suspense fallback={null}>
      <SessionExpiredDialog />
    </Suspense>
  );
}

/**
 * After a client-side navigation, focus moves to the new page's heading so screen-reader and
 * keyboard users start at the top of the content instead of on <body>.
 */
function useFocusHeadingOnNavigation(pathname: string) {
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    focusPageHeading();
  }, [pathname]);
}
