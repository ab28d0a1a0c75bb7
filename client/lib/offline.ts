// The page side of the service worker (server/lib/service-worker.ts): registering it, keeping the
// open page and the assets it runs on for an offline reload, and forgetting kept pages on sign-out.

/** Same names as the service worker's. */
const ASSET_CACHE = "tw-assets-v1";
const PAGE_CACHE = "tw-pages-v1";

/** Registers /sw.js once the page has loaded, so it never competes with the page's own start-up. */
export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  const register = () => navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => undefined);
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

/**
 * Keeps this page (as the server renders it now) and every built asset it has loaded, so a reload
 * while offline still opens it. For pages that hold work not yet saved; reached by an in-app link,
 * the page itself was never a navigation the service worker could keep.
 */
export async function keepPageForOffline(): Promise<void> {
  if (typeof caches === "undefined") return;
  try {
    const assets = await caches.open(ASSET_CACHE);
    const urls = performance
      .getEntriesByType("resource")
      .map((entry) => new URL(entry.name))
      .filter((url) => url.origin === location.origin && url.pathname.startsWith("/assets/"))
      .map((url) => url.pathname);
    for (const url of new Set(urls)) {
      if (!(await assets.match(url))) await assets.add(url).catch(() => undefined);
    }
    const page = location.pathname + location.search;
    const pages = await caches.open(PAGE_CACHE);
    if (!(await pages.match(page, { ignoreVary: true }))) await pages.add(page);
  } catch {
    // Offline already, or storage refused: the local copy of the work is still kept.
  }
}

/** Drops every kept page: after signing out, nobody's pages remain on the device. */
export async function forgetOfflinePages(): Promise<void> {
  if (typeof caches === "undefined") return;
  await caches.delete(PAGE_CACHE).catch(() => false);
}
