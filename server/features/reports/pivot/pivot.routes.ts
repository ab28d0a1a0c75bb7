// GET /api/reports/pivot, upgraded to a WebSocket: Perspective's protocol between the /reports viewer
// and a virtual server over the workspace's lines (pivot-service.ts relays it to the pivot worker).
import { Hono } from "hono";
import { upgradeWebSocket, websocket } from "hono/bun";
import type { TAppEnv } from "../../../lib/context";
import { AppError } from "../../../lib/errors";
import { authOf, isSameOrigin, readSessionToken, requireAuth } from "../../auth/auth.middleware";
import { validateSessionToken } from "../../auth/session.service";
import { openPivotConnection, type TPivotConnection } from "./pivot-service";

/** Largest frame a viewer sends (a view config with its filters); Bun closes the socket (1009) above. */
export const PIVOT_MAX_MESSAGE_BYTES = 256 * 1024;

/**
 * How long a socket trusts its session before asking again: a member removed or signed out while the
 * report is open loses it within this time, as their other requests do at once.
 */
export const SESSION_RECHECK_MS = 5_000;

/** Close codes: 1008 policy (a text frame, an ended session), 1011 the service failed. */
const POLICY = 1008;
const FAILED = 1011;

/**
 * The socket: 401 without a session, 403 from another origin (a browser always sends Origin on a
 * WebSocket, and a cookie rides along whatever page opened it), 426 when not an upgrade. Binary
 * frames only; the connection's views are dropped when it closes.
 */
export const reportPivotRoutes = new Hono<TAppEnv>().get(
  "/",
  requireAuth(),
  async (c, next) => {
    if (readSessionToken(c)?.via === "cookie" && !(c.req.header("origin") && isSameOrigin(c))) {
      throw new AppError(
        "FORBIDDEN",
        "Cross-origin request refused: open the report from this app's own pages",
      );
    }
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
      return c.json({ message: "This address is a WebSocket: connect with Upgrade: websocket" }, 426);
    }
    await next();
  },
  upgradeWebSocket((c) => {
    const { workspaceId } = authOf(c);
    const source = { databaseUrl: c.var.env.databaseUrl, authToken: c.var.env.databaseAuthToken };
    const db = c.var.db;
    const token = readSessionToken(c)?.token ?? "";
    let connection: TPivotConnection | null = null;
    let checkedAt = Date.now();
    // Requests pass in order, each after the session was found still valid (at most every few seconds).
    let queue: Promise<void> = Promise.resolve();
    const forward = (ws: { close(code?: number, reason?: string): void }, bytes: Promise<Uint8Array>) => {
      queue = queue
        .then(async () => {
          const data = await bytes;
          if (Date.now() - checkedAt > SESSION_RECHECK_MS) {
            if (!(await validateSessionToken(db, token))) {
              connection?.close();
              connection = null;
              ws.close(POLICY, "Your session ended: sign in again");
              return;
            }
            checkedAt = Date.now();
          }
          connection?.request(data);
        })
        .catch(() => undefined);
    };
    return {
      onOpen(_event, ws) {
        connection = openPivotConnection(source, workspaceId, {
          onResponse: (bytes) => {
            if (ws.readyState === 1) ws.send(bytes as Uint8Array<ArrayBuffer>);
          },
          onFailure: (message) => {
            connection?.close();
            connection = null;
            if (ws.readyState === 1) ws.close(FAILED, message.slice(0, 120));
          },
        });
      },
      onMessage(event, ws) {
        if (typeof event.data === "string") {
          ws.close(POLICY, "Binary Perspective frames only");
          return;
        }
        const data = event.data as ArrayBuffer | Uint8Array | Blob;
        forward(
          ws,
          data instanceof Blob
            ? data.arrayBuffer().then((buffer) => new Uint8Array(buffer))
            : Promise.resolve((data instanceof Uint8Array ? data : new Uint8Array(data)).slice()),
        );
      },
      onClose() {
        connection?.close();
        connection = null;
      },
    };
  }),
);

/** Bun.serve's `websocket` option: Hono's handler, with the frame size capped. */
export const pivotWebSocket = { ...websocket, maxPayloadLength: PIVOT_MAX_MESSAGE_BYTES };
