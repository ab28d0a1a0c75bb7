import { Hono } from "hono";
import { z } from "zod";
import { ZResetPasswordInput } from "../../../db/contracts/auth";
import {
  ZInviteMemberInput,
  ZMemberRolesInput,
  ZWorkspaceSettingsInput,
} from "../../../db/contracts/members";
import type { TAppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { validate } from "../../lib/validate";
import { authOf, requireAuth } from "../auth/auth.middleware";
import { startSession } from "../auth/auth.routes";
import { toPublicUser } from "../auth/auth.service";
import {
  acceptInvitation,
  changeRoles,
  complianceCount,
  inviteMember,
  listMembers,
  openInvitation,
  pendingInvitations,
  removeMember,
  revokeInvitation,
  setTwoPersonRelease,
  twoPersonRelease,
} from "./members.service";

const ID = "{[1-9][0-9]{0,15}}";
const deps = (c: { var: TAppEnv["Variables"] }) => ({
  db: c.var.db,
  env: c.var.env,
  mailer: c.var.mailer,
  secret: c.var.secret,
});

/**
 * The workspace's members and settings under /api/workspace (session required; writes need the
 * admin role, by the central table in roles.ts).
 */
export const workspaceRoutes = new Hono<TAppEnv>()
  .use(requireAuth())
  /** GET /members → the members with roles and last sign-in, and the invitations still open. */
  .get("/members", async (c) => {
    const { workspaceId } = authOf(c);
    return c.json({
      data: await listMembers(c.var.db, workspaceId),
      invitations: await pendingInvitations(c.var.db, workspaceId),
    });
  })
  /** POST /members {email, title, name, surname, roles} → 201 the invitation; the link goes by mail. */
  .post("/members", validate("json", ZInviteMemberInput), async (c) => {
    const invitation = await inviteMember(deps(c), authOf(c).user, c.req.valid("json"));
    return c.json({ invitation, messages: [`Invitation sent to ${invitation.email}`] }, 201);
  })
  /** PUT /members/:id {roles} → the member with the new roles (the last admin keeps Admin). */
  .put(`/members/:id${ID}`, validate("json", ZMemberRolesInput), async (c) => {
    const member = await changeRoles(
      c.var.db,
      authOf(c).workspaceId,
      Number(c.req.param("id")),
      c.req.valid("json").roles,
    );
    return c.json({ member, messages: ["Roles saved"] });
  })
  /** DELETE /members/:id → removed; their sessions end, their records stay attributed to them. */
  .delete(`/members/:id${ID}`, async (c) => {
    await removeMember(c.var.db, authOf(c).workspaceId, Number(c.req.param("id")));
    return c.json({ messages: ["Member removed"] });
  })
  /** DELETE /members/invitations/:id → the open invitation withdrawn; its link stops working. */
  .delete(`/members/invitations/:id${ID}`, async (c) => {
    await revokeInvitation(c.var.db, authOf(c).workspaceId, Number(c.req.param("id")));
    return c.json({ messages: ["Invitation withdrawn"] });
  })
  /** GET /settings → the workspace's two-person release setting and its compliance members. */
  .get("/settings", async (c) => {
    const { workspaceId } = authOf(c);
    return c.json({
      two_person_release: await twoPersonRelease(c.var.db, workspaceId),
      compliance_members: await complianceCount(c.var.db, workspaceId),
    });
  })
  /** PUT /settings {two_person_release} → saved; on needs two compliance members (422 otherwise). */
  .put("/settings", validate("json", ZWorkspaceSettingsInput), async (c) => {
    const { workspaceId, user } = authOf(c);
    await setTwoPersonRelease(c.var.db, workspaceId, c.req.valid("json").two_person_release, user);
    return c.json({
      two_person_release: await twoPersonRelease(c.var.db, workspaceId),
      compliance_members: await complianceCount(c.var.db, workspaceId),
      messages: ["Settings saved"],
    });
  });

const ZLink = z.object({
  expires: z.string().regex(/^\d{1,15}$/),
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});

function readLink(c: { req: { query(name: string): string | undefined } }) {
  const parsed = ZLink.safeParse({ expires: c.req.query("expires"), signature: c.req.query("signature") });
  if (!parsed.success) {
    throw new AppError(
      "FORBIDDEN",
      "This invitation link is invalid, expired or already used. Ask your admin for a new invitation.",
    );
  }
  return { expires: Number(parsed.data.expires), signature: parsed.data.signature };
}

/** Public: the e-mailed invitation link, read and accepted (no session; the signature is the proof). */
export const invitationRoutes = new Hono<TAppEnv>()
  /** GET /invitations/:id?expires&signature → who is invited to which workspace; 403 for a bad link. */
  .get(`/:id${ID}`, async (c) => {
    const { expires, signature } = readLink(c);
    const { row, workspaceName } = await openInvitation(
      deps(c),
      Number(c.req.param("id")),
      expires,
      signature,
    );
    return c.json({
      email: row.email,
      title: row.title,
      name: row.name,
      surname: row.surname,
      workspace: workspaceName,
    });
  })
  /** POST /invitations/:id/accept?expires&signature {password} → the new member, signed in. */
  .post(`/:id${ID}/accept`, validate("json", ZResetPasswordInput), async (c) => {
    const { expires, signature } = readLink(c);
    const user = await acceptInvitation(
      deps(c),
      Number(c.req.param("id")),
      expires,
      signature,
      c.req.valid("json").password,
    );
    const { token } = await startSession(c, user, false);
    return c.json({ user: toPublicUser(user), token, messages: ["Welcome to the workspace"] }, 201);
  });
