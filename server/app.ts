import { type Context, Hono } from "hono";
import { getCookie } from "hono/cookie";
import { HTTPException } from "hono/http-exception";
import type { TDb } from "../db/client";
import type { TPublicUser } from "../db/contracts/auth";
import type { TEnv } from "./env";
import { loginForm, registerForm } from "./features/auth/auth.forms";
import { SESSION_COOKIE } from "./features/auth/auth.middleware";
import { authRoutes, logoutPage, logoutSubmit } from "./features/auth/auth.routes";
import { toPublicUser } from "./features/auth/auth.service";
import { validateSessionToken } from "./features/auth/session.service";
import { createContactRoutes } from "./features/contacts/contacts.routes";
import { dictionaryRoutes } from "./features/dictionary/dictionary.routes";
import { createDocumentRoutes } from "./features/documents/documents.routes";
import { DOCUMENT_OWNERS } from "./features/documents/documents.service";
import { exportControlRoutes } from "./features/export-control/export-control.routes";
import { exporterProfileRoutes } from "./features/exporter-profile/exporter-profile.routes";
import { healthRoutes } from "./features/health/health.routes";
import { homeRoutes } from "./features/home/home.routes";
import { licensesEntity } from "./features/licenses/licenses.entity";
import { invitationRoutes, workspaceRoutes } from "./features/members/members.routes";
import { generateOnShipmentSave } from "./features/paperwork/paperwork.hooks";
import { paperworkRoutes } from "./features/paperwork/paperwork.routes";
import { partnerTypeRoutes } from "./features/partner-types/partner-types.routes";
import { productsEntity } from "./features/products/products.entity";
import { reportPivotRoutes } from "./features/reports/pivot/pivot.routes";
import { reportAttributesRoutes, reportDataRoutes } from "./features/reports/reports.routes";
import { screenAfterImport, screenOnContactSave } from "./features/screening/screening.hooks";
import { screeningRoutes } from "./features/screening/screening.routes";
import { searchRoutes } from "./features/search/search.routes";
import { createShipmentRoutes, type TShipmentRouteOptions } from "./features/shipments/shipments.routes";
import { shippingFormsEntity } from "./features/shipping-forms/shipping-forms.entity";
import { userRoutes } from "./features/users/users.routes";
import { wikisEntity } from "./features/wikis/wikis.entity";
import { readEncodedAsset, type TAssetStore } from "./lib/assets";
import { compressDynamic } from "./lib/compress";
import type { TAppEnv, TAppVariables, TAuth } from "./lib/context";
import {
  diskSpace,
  refuseWritesWhileFull,
  storageError,
  storageFailureOf,
  type TDiskSpace,
} from "./lib/disk-space";
import { createEntityRoutes } from "./lib/entity/entity.routes";
import { AppError, STATUS_BY_CODE } from "./lib/errors";
import { boundErrorAnswer } from "./lib/input-bounds";
import { apiBodyLimit, isDatabaseBusy } from "./lib/limits";
import type { TLogger } from "./lib/logger";
import type { TMailer } from "./lib/mailer";
import { securityHeaders } from "./lib/security";
import { SERVICE_WORKER_SOURCE } from "./lib/service-worker";
import type { TStorage } from "./lib/storage";
import { VersionedPages } from "./lib/versioned-pages";
import type { TRenderPage } from "./ssr";

export type TAppDeps = {
  db: TDb;
  env: TEnv;
  logger: TLogger;
  mailer: TMailer;
  storage: TStorage;
  /** Signs e-mailed links (server/lib/secret.ts). */
  secret: string;
  /** Whether DATA_DIR takes writes; without it (API tests), one without a reserve file is made. */
  disk?: TDiskSpace;
  screening: TAppVariables["screening"];
  /** The client build; without it (API tests) only /api is served. */
  assets?: TAssetStore;
  /** Server-side renderer for every non-API GET. */
  render?: TRenderPage;
  /** Shipment hooks, e.g. the paperwork generator as `shipments.generateDocuments`. */
  shipments?: TShipmentRouteOptions;
  /** Keep anonymous renders of the public pages (default); dev mode turns it off, as pages change. */
  isKeepingPublicPages?: boolean;
  /**
   * How to start this program again: a big contacts upload then imports in a child process
   * (contact-import-child.ts). Without it (API tests), uploads import in this process.
   */
  self?: string[];
};

/** Builds the whole HTTP app: /api JSON routes, built assets and server-rendered screens. */
export function createApp(deps: TAppDeps) {
  const app = new Hono<TAppEnv>();
  const disk = deps.disk ?? diskSpace(deps.env.dataDir);
  const setDeps = (c: Context<TAppEnv>) => {
    c.set("disk", disk);
    c.set("db", deps.db);
    c.set("env", deps.env);
    c.set("logger", deps.logger);
    c.set("mailer", deps.mailer);
    c.set("storage", deps.storage);
    c.set("secret", deps.secret);
    c.set("screening", deps.screening);
  };

  app.use(async (c, next) => {
    const started = performance.now();
    c.set("requestId", crypto.randomUUID());
    setDeps(c);
    await next();
    c.header("X-Request-Id", c.var.requestId);
    deps.logger.info(`${c.req.method} ${c.req.path}`, {
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      id: c.var.requestId,
    });
  });
  app.use(securityHeaders());
  app.use("/api/*", apiBodyLimit());
  // While the disk is full, writes are refused at once with a 507 that says why; reads and sign-in go on.
  app.use(refuseWritesWhileFull());
  // Pages and JSON compress on the fly (built assets are precompressed at build time).
  app.use(compressDynamic({ contentType: /^\s*(?:text\/html|application\/json)\b/i }));

  const onError = (error: Error, c: Context<TAppEnv>) => {
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
      // Bounded whatever raised it: an error answer never grows with the size of the request.
      const { message, errors } = boundErrorAnswer(error.message, error.errors);
      return c.json({ ...error.body, message, ...(errors ? { errors } : {}) }, STATUS_BY_CODE[error.code]);
    }
    const storageFailure = storageFailureOf(error);
    if (storageFailure) {
      c.var.disk?.failed(storageFailure);
      deps.logger.warn("a write failed: the disk is full or read-only", {
        id: c.var.requestId,
        path: c.req.path,
        error: String(error),
      });
      const refused = storageError(storageFailure);
      for (const [name, value] of Object.entries(refused.headers ?? {})) c.header(name, value);
      return c.json({ message: refused.message }, STATUS_BY_CODE[refused.code]);
    }
    if (isDatabaseBusy(error)) {
      // Another process (a CLI import) holds the write lock longer than the busy timeout.
      c.header("Retry-After", "5");
      return c.json(
        { message: "The database is busy (a large import may be running). Please try again in a moment." },
        503,
      );
    }
    if (error instanceof HTTPException && error.status < 500) {
      return c.json({ message: error.message || "Bad request" }, error.status);
    }
    deps.logger.error("unhandled error", {
      id: c.var.requestId,
      method: c.req.method,
      path: c.req.path,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    if (c.req.path.startsWith("/api/") || !deps.render) {
      return c.json({ message: "Internal error", request_id: c.var.requestId }, 500);
    }
    return c.html(errorDocument(c.var.requestId), 500);
  };
  app.onError(onError);

  const api = new Hono<TAppEnv>()
    .route("/health", healthRoutes)
    .route("/dictionary", dictionaryRoutes)
    .route("/home", homeRoutes)
    .route("/search", searchRoutes)
    .route("/", authRoutes)
    .route("/user", userRoutes)
    .route("/workspace", workspaceRoutes)
    .route("/invitations", invitationRoutes)
    .route("/partner-types", partnerTypeRoutes)
    // Attachment routes come before their entity's routes so "/products/documents" is not read as an id.
    .route("/products/documents", createDocumentRoutes(DOCUMENT_OWNERS.product_id))
    .route("/licenses/documents", createDocumentRoutes(DOCUMENT_OWNERS.license_id))
    .route("/wikis/documents", createDocumentRoutes(DOCUMENT_OWNERS.wiki_id))
    .route("/shipping-documents/documents", createDocumentRoutes(DOCUMENT_OWNERS.msdocument_id))
    // Screening, and contact writes that screen (a save, an import), wait for the index the server
    // builds after it starts listening, or answer 503 with Retry-After: never an unscreened pass.
    .use("/screenings/*", (c, next) => c.var.screening.registry.readyForRequest().then(next))
    .use("/contacts/*", async (c, next) => {
      if (SCREENING_WRITES.has(c.req.method)) await c.var.screening.registry.readyForRequest();
      await next();
    })
    .route(
      "/contacts",
      createContactRoutes({
        afterSave: screenOnContactSave,
        afterImport: screenAfterImport,
        self: deps.self,
      }),
    )
    .route("/screenings", screeningRoutes)
    .route("/paperwork", paperworkRoutes)
    .route("/export-control", exportControlRoutes)
    .route("/exporter-profile", exporterProfileRoutes)
    .route("/products", createEntityRoutes(productsEntity))
    .route("/licenses", createEntityRoutes(licensesEntity))
    .route("/wikis", createEntityRoutes(wikisEntity))
    .route("/shipping-documents", createEntityRoutes(shippingFormsEntity))
    .route(
      "/shipments",
      createShipmentRoutes({ generateDocuments: generateOnShipmentSave, ...deps.shipments }),
    )
    .route("/reports-data", reportDataRoutes)
    .route("/reports-attributes", reportAttributesRoutes)
    .route("/reports/pivot", reportPivotRoutes);
  api.notFound((c) => c.json({ message: "Not found" }, 404));
  app.route("/api", api);
  // Hono's route() does not carry the sub-app's notFound to the parent: answer unknown /api paths here.
  app.all("/api/*", (c) => c.json({ message: "Not found" }, 404));
  app.all("/api", (c) => c.json({ message: "Not found" }, 404));

  // Server rendering reaches the same /api routes in-process, without the per-request work that
  // only an HTTP request needs (request id and log line, security headers and nonce, body limit,
  // compression). A GET there runs as the page request's own signed-in caller, resolved once per page.
  const internal = new Hono<TInternalEnv>();
  internal.use(async (c, next) => {
    c.set("requestId", c.env.requestId);
    setDeps(c as unknown as Context<TAppEnv>);
    if (c.env.auth && (c.req.method === "GET" || c.req.method === "HEAD")) c.set("auth", c.env.auth);
    await next();
  });
  internal.onError((error, c) => onError(error, c as unknown as Context<TAppEnv>));
  internal.route("/api", api);
  internal.all("*", (c) => c.json({ message: "Not found" }, 404));
  // Opened directly, the logout screen must clear the browser's cookie, which a rendered page cannot:
  // its page posts back here (a GET never logs out, so no other site can force a logout).
  app.get("/auth/logout", logoutPage);
  app.post("/auth/logout", logoutSubmit);
  // The login and register pages post here when JavaScript has not (yet) run.
  app.post("/auth/login", loginForm);
  app.post("/auth/register", registerForm);

  // The service worker sits at the root so its scope is the whole app; the browser checks it for
  // updates on every visit, so it is never cached.
  app.get("/sw.js", (c) => {
    c.header("Content-Type", "text/javascript; charset=utf-8");
    c.header("Cache-Control", "no-cache");
    return c.body(SERVICE_WORKER_SOURCE);
  });

  const { assets, render } = deps;
  if (assets) {
    app.get("/assets/*", async (c) => {
      const file = await readEncodedAsset(assets, c.req.path, c.req.header("accept-encoding"));
      if (!file) return c.json({ message: "Not found" }, 404);
      // Built file names carry a content hash, so a URL never changes meaning.
      c.header("Cache-Control", "public, max-age=31536000, immutable");
      c.header("Content-Type", file.type);
      c.header("Vary", "Accept-Encoding");
      if (file.encoding) c.header("Content-Encoding", file.encoding);
      return c.body(file.body.stream());
    });
    for (const file of ["/favicon.svg", "/logo.svg"]) {
      app.get(file, async (c) => {
        const blob = await assets.read(file);
        if (!blob) return c.notFound();
        c.header("Cache-Control", "public, max-age=86400");
        c.header("Content-Type", "image/svg+xml");
        return c.body(blob.stream());
      });
    }
  }
  if (render && assets) {
    // Public pages rendered for a visitor without a session differ only in the CSP nonce: the first
    // render is kept (split at its nonce) and later visitors get it with their own nonce.
    const anonymousPages = new Map<
      string,
      { parts: string[]; status: number; headers: [string, string][] }
    >();
    const versionedPages = new VersionedPages();
    app.get("*", async (c) => {
      const isCacheable =
        deps.isKeepingPublicPages !== false &&
        ANONYMOUS_PAGES.test(c.req.path) &&
        !new URL(c.req.url).search &&
        !c.req.header("authorization") &&
        !/(?:^|;\s*)twsession=/.test(c.req.header("cookie") ?? "") &&
        // The sidebar's collapsed state is part of the render (client/lib/ui-prefs.ts): keep only the default.
        !/(?:^|;\s*)tw_sidebar=collapsed/.test(c.req.header("cookie") ?? "");
      const kept = isCacheable ? anonymousPages.get(c.req.path) : undefined;
      if (kept) {
        const headers = new Headers(kept.headers);
        return new Response(kept.parts.join(c.var.nonce), { status: kept.status, headers });
      }
      // The page's caller as the router's session gate would learn it from GET /api/user (the
      // session cookie only, like the in-process calls), resolved once instead of asked per page.
      const token = getCookie(c, SESSION_COOKIE);
      const found = token ? await validateSessionToken(deps.db, token) : null;
      const auth = found ? { ...found, workspaceId: found.user.workspace_id } : undefined;
      const cookie = c.req.header("cookie") ?? "";
      // The same JSON /api/user answers (a JSON round trip: what the page dehydrates must match).
      const user = auth ? (JSON.parse(JSON.stringify(toPublicUser(auth.user))) as TPublicUser) : null;
      // A signed-in page with a data version (server/lib/versioned-pages.ts) is served again while
      // that version, the caller and the sidebar state are the same.
      const versionKey =
        auth && user && deps.isKeepingPublicPages !== false
          ? await versionedPages.keyOf(
              deps.db,
              new URL(c.req.url),
              { workspaceId: auth.workspaceId, user },
              /(?:^|;\s*)tw_sidebar=collapsed/.test(cookie),
            )
          : null;
      const keptVersion = versionKey ? versionedPages.get(versionKey) : undefined;
      if (keptVersion) {
        const headers = new Headers(keptVersion.headers);
        return new Response(keptVersion.parts.join(c.var.nonce), { status: keptVersion.status, headers });
      }
      const internalEnv: TInternalEnv["Bindings"] = { requestId: c.var.requestId, auth };
      const response = await render({
        request: c.req.raw,
        nonce: c.var.nonce,
        assets: assets.page,
        user,
        api: {
          // Route loaders reach /api in-process: no socket, no second HTTP parse.
          fetch: (path, init) =>
            internal.request(path, { ...init, headers: { cookie, ...(init?.headers ?? {}) } }, internalEnv),
        },
      });
      const headers = new Headers(response.headers);
      headers.set("Cache-Control", "no-store");
      if ((isCacheable || versionKey) && response.status === 200 && !headers.has("set-cookie")) {
        const html = await response.text();
        const page = { parts: html.split(c.var.nonce), status: 200, headers: [...headers] };
        if (versionKey) versionedPages.set(versionKey, page);
        else anonymousPages.set(c.req.path, page);
        return new Response(html, { status: 200, headers });
      }
      return new Response(response.body, { status: response.status, headers });
    });
  }
  return app;
}

export type TApp = ReturnType<typeof createApp>;

/** The in-process API of server rendering: the page request's id and, when signed in, its caller. */
type TInternalEnv = TAppEnv & { Bindings: { requestId: string; auth: TAuth | undefined } };

/** Public pages whose anonymous render is the same for every visitor (kept after the first). */
const ANONYMOUS_PAGES = /^\/(?:auth\/(?:login|register|forgot-password)|legal\/[a-z-]+)$/;

/** Contact requests that screen: a create or change (an import is a POST too); a delete does not. */
const SCREENING_WRITES = new Set(["POST", "PUT", "PATCH"]);

function errorDocument(requestId: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>An error occured</title></head><body><h1>An error occured</h1><p>The page could not be rendered (request ${requestId}).</p><p><a href="/home">Home</a></p></body></html>`;
}
