import "@vitejs/plugin-react/preamble";
import "./styles/app.css";
import { RouterClient } from "@tanstack/react-router/ssr/client";
import { hydrateRoot } from "react-dom/client";
import { createApi } from "./lib/api";
import { createAppRouter } from "./router";

// The server put the built asset URLs into the page; read them back so the client renders the same tags.
const assets = {
  styles: [...document.querySelectorAll<HTMLLinkElement>('link[data-asset="style"]')].map(
    (l) => l.getAttribute("href")!,
  ),
  scripts: [...document.querySelectorAll<HTMLScriptElement>('script[data-asset="script"]')].map(
    (s) => s.getAttribute("src")!,
  ),
};

const router = createAppRouter({
  api: createApi((path, init) => fetch(path, { credentials: "same-origin", ...init })),
  assets,
});

hydrateRoot(document, <RouterClient router={router} />);
