import "@vitejs/plugin-react/preamble";
import "./styles/app.css";
import { RouterClient } from "@tanstack/react-router/ssr/client";
import { hydrateRoot } from "react-dom/client";
import { createApi } from "./lib/api";
import { createDictionaryCache } from "./lib/dictionaries";
import { registerServiceWorker } from "./lib/offline";
import { createSessionStore, notifySessionExpired } from "./lib/session";
import { uiPrefsFromCookie } from "./lib/ui-prefs";
import { createAppRouter } from "./router";

// The server put the built asset URLs into the page; read them back so the client renders the same tags.
const assets = {
  styles: [...document.querySelectorAll<HTMLLinkElement>('link[data-asset="style"]')].map(
    (l) => l.getAttribute("href")!,
  ),
  scripts: [...document.querySelectorAll<HTMLScriptElement>('script[data-asset="script"]')].map(
    (s) => s.getAttribute("src")!,
  ),
  preloads: [...document.querySelectorAll<HTMLLinkElement>('link[data-asset="preload"]')].map(
    (l) => l.getAttribute("href")!,
  ),
};

const session = createSessionStore();
// Calls that answer 401 by design (wrong password, bad reset link) do not end a session.
const PUBLIC_CALLS = /^\/(login|register|forgot|reset|logout)/;

const api = createApi((path, init) => fetch(path, { credentials: "same-origin", ...init }), {
  onUnauthorized: (path) => {
    if (PUBLIC_CALLS.test(path) || !session.user) return;
    session.user = null;
    notifySessionExpired();
  },
});

const router = createAppRouter({
  api,
  assets,
  session,
  dictionaries: createDictionaryCache(api),
  ui: uiPrefsFromCookie(document.cookie),
});

hydrateRoot(document, <RouterClient router={router} />);
registerServiceWorker();
