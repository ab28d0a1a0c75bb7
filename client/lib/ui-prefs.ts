/**
 * Display preferences that must render the same on the server as in the browser, so they live in
 * a cookie (read from the request during SSR, from document.cookie after hydration).
 */
export const SIDEBAR_COOKIE = "tw_sidebar";

export type TUiPrefs = { isSidebarCollapsed: boolean };

/** Reads the preferences from a Cookie header (or document.cookie). */
export function uiPrefsFromCookie(cookieHeader: string | null | undefined): TUiPrefs {
  const match = /(?:^|;\s*)tw_sidebar=([^;]*)/.exec(cookieHeader ?? "");
  return { isSidebarCollapsed: match?.[1] === "collapsed" };
}

/** Remembers the sidebar state for a year; readable by the server on the next page load. */
export function saveSidebarCollapsed(isCollapsed: boolean): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser we support
  document.cookie = `${SIDEBAR_COOKIE}=${isCollapsed ? "collapsed" : "expanded"}; path=/; max-age=31536000; samesite=lax`;
}
