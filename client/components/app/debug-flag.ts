// Whether the debug panel is on: read by the root route on every screen; the panel itself
// (./debug-panel) loads only when it is.

export const DEBUG_STORAGE_KEY = "tradewinds-debug";

/** True when `?debug=1` is in the URL or the flag is stored in the browser. */
export function isDebugOn(search: Record<string, unknown>): boolean {
  if (search.debug === 1 || search.debug === "1" || search.debug === true) return true;
  if (typeof window === "undefined") return false;
  try {
    return window.localStorage.getItem(DEBUG_STORAGE_KEY) === "1";
  } catch {
    return false;
  }
}
