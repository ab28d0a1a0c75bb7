/**
 * Every API route that writes, called by a member holding only admin, only compliance or only
 * shipper: the call needs the role the central table names (roles.ts), and a member without it gets
 * a 403 naming the role, never a silent success. Routes are read from the app, so a new one is
 * walked too, and one the table does not name fails here.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ROLE_LABELS, type TRole } from "../../../db/contracts/members";
import { apiRoutes, fillPath, PUBLIC_ROUTES, plainPath } from "../../security/routes";
import { call, joinAs, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import { holdsRight, WRITE_RIGHTS, writeRightOf } from "./roles";

let ctx: TTestContext;
const members: Partial<Record<TRole, { auth: Record<string, string> }>> = {};

beforeAll(async () => {
  ctx = await createTestContext();
  const owner = await signUp(ctx);
  for (const role of ["admin", "compliance", "shipper"] as const)
    members[role] = await joinAs(ctx, owner, [role]);
});
afterAll(() => ctx.database.close());

const writingRoutes = () =>
  apiRoutes(ctx.app)
    .map((r) => ({ method: r.method, path: plainPath(r.path) }))
    .filter((r) => !PUBLIC_ROUTES.has(`${r.method} ${r.path}`))
    .filter((r) => writeRightOf(r.method, r.path) !== null);

describe("the role every writing route needs", () => {
  test("every writing route is named in the table", () => {
    const unnamed = writingRoutes().filter(
      (r) => !WRITE_RIGHTS.some(([m, pattern]) => (m === "*" || m === r.method) && pattern.test(r.path)),
    );
    expect(unnamed).toEqual([]);
    expect(writingRoutes().length).toBeGreaterThan(40);
  });

  test("the table's rights are the issue's: admin governs, compliance releases, shipper works", () => {
    expect(writeRightOf("POST", "/api/workspace/members")).toBe("admin");
    expect(writeRightOf("PUT", "/api/exporter-profile")).toBe("admin");
    expect(writeRightOf("POST", "/api/export-control/editions")).toBe("admin");
    expect(writeRightOf("POST", "/api/screenings/override")).toBe("compliance");
    expect(writeRightOf("GET", "/api/screenings/override")).toBe("compliance");
    expect(writeRightOf("POST", "/api/contacts")).toBe("shipper");
    expect(writeRightOf("PUT", "/api/shipments/1")).toBe("shipper");
    expect(writeRightOf("GET", "/api/contacts")).toBeNull();
    expect(writeRightOf("POST", "/api/user/changePassword")).toBe("member");
  });

  for (const role of ["admin", "compliance", "shipper"] as const) {
    test(`a member holding only ${role}: allowed or 403 naming the role`, async () => {
      const failures: string[] = [];
      for (const route of writingRoutes()) {
        if (route.path === "/api/logout") continue; // would end the session the walk runs on
        const right = writeRightOf(route.method, route.path)!;
        const path = fillPath(route.path, () => "999999");
        const res = await call(
          ctx,
          members[role]!.auth,
          route.method,
          path,
          route.method === "DELETE" ? undefined : {},
        );
        const body = (await res.json().catch(() => ({}))) as { message?: string };
        const allowed = holdsRight([role], right);
        if (allowed && res.status === 403)
          failures.push(`${route.method} ${route.path}: 403 ${body.message}`);
        if (!allowed) {
          const label = ROLE_LABELS[right as TRole];
          if (res.status !== 403 || !body.message?.includes(`${label} role`)) {
            failures.push(`${route.method} ${route.path}: ${res.status} ${body.message} (needs ${right})`);
          }
        }
      }
      expect(failures).toEqual([]);
    });
  }
});
