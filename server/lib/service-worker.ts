/**
 * The service worker at /sw.js (scope /): lets a signed-in page that was open before the connection
 * dropped load again offline, so the browser's copy of unsaved work (client/lib/kept-work.ts) can be
 * offered for restore. Built assets (hashed, immutable) are served cache-first. Pages are always
 * asked of the network first and a copy is used only when the network cannot be reached; /api is
 * never touched (routed around the worker where the browser has static routes). Any visit that
 * lands on the login page (signed out, session ended, another user) drops every kept page, so one
 * person's pages are never shown to another.
 * The cache names are shared with client/lib/offline.ts.
 */
export const ASSET_CACHE = "tw-assets-v1";
export const PAGE_CACHE = "tw-pages-v1";
/** Pages kept for offline use; the oldest go first. */
const MAX_PAGES = 30;

export const SERVICE_WORKER_SOURCE = `"use strict";
const ASSET_CACHE = ${JSON.stringify(ASSET_CACHE)};
const PAGE_CACHE = ${JSON.stringify(PAGE_CACHE)};
const MAX_PAGES = ${MAX_PAGES};
const OFFLINE_PAGE = '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Offline · Tradewinds</title></head><body style="font-family:system-ui,sans-serif;margin:3rem auto;max-width:32rem;padding:0 1rem"><main><h1>You are offline</h1><p>This page was not opened on this device before the connection dropped. Reload it when you are back online.</p></main></body></html>';

self.addEventListener("install", (event) => {
  // The API never passes through this worker: where the browser has static routes, its requests go
  // straight to the network from the page (no worker start per call, and the page's own network
  // conditions and interception apply to them). Where it has not, the fetch handler leaves them alone.
  if (event.addRoutes) {
    event.waitUntil(
      event.addRoutes([{ condition: { urlPattern: "/api/*" }, source: "network" }]).catch(() => undefined),
    );
  }
  self.skipWaiting();
});
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== ASSET_CACHE && n !== PAGE_CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname === "/api" || url.pathname.startsWith("/api/")) return;
  if (url.pathname.startsWith("/assets/")) event.respondWith(assetFirstFromCache(request));
  else if (request.mode === "navigate") event.respondWith(pageFromNetwork(request, url));
});

async function assetFirstFromCache(request) {
  const cache = await caches.open(ASSET_CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function pageFromNetwork(request, url) {
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    const kept = await (await caches.open(PAGE_CACHE)).match(request, { ignoreVary: true });
    return kept || new Response(OFFLINE_PAGE, { status: 503, headers: { "content-type": "text/html; charset=utf-8" } });
  }
  const landed = new URL(response.url || request.url);
  if (landed.pathname.startsWith("/auth/")) {
    await caches.delete(PAGE_CACHE);
  } else if (response.ok && !url.pathname.startsWith("/auth/") && (response.headers.get("content-type") || "").includes("text/html")) {
    const cache = await caches.open(PAGE_CACHE);
    await cache.put(request, response.clone());
    const keys = await cache.keys();
    await Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_PAGES)).map((key) => cache.delete(key)));
  }
  return response;
}
`;
