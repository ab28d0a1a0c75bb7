import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import {
  parseRoles,
  type TMember,
  type TPendingInvitation,
  type TRole,
  type ZInviteMemberInput,
} from "../../../db/contracts/members";
import { invitations, settings_audit_log, users, workspaces } from "../../../db/schema";
import type { TEnv } from "../../env";
import type { TDbOrTx } from "../../lib/entity/entity";
import { AppError, notFound } from "../../lib/errors";
import type { TMailer } from "../../lib/mailer";
import { sign, verifySignature } from "../../lib/signing";
import { hashPassword, isDuplicateEmail } from "../auth/auth.service";
import { invitationMail } from "../auth/auth-mail";
import { forgetUser, invalidateUserSessions, type TSessionUser } from "../auth/session.service";

/** An invitation link is valid for 7 days and works once. */
export const INVITATION_SECONDS = 7 * 24 * 60 * 60;

const now = () => Math.floor(Date.now() / 1000);
const iso = () => new Date().toISOString();

type TDeps = { db: TDb; env: TEnv; mailer: TMailer; secret: string };

/** The workspace's members (removed ones left out), by surname. */
export async function listMembers(db: TDbOrTx, workspaceId: number): Promise<TMember[]> {
  const rows = await db
    .select()
    .from(users)
    .where(and(eq(users.workspace_id, workspaceId), isNull(users.removed_at)))
    .orderBy(users.surname, users.name, users.id);
  return rows.map(toMember);
}

export const toMember = (user: TSessionUser): TMember => ({
  id: user.id,
  title: user.title,
  name: user.name,
  surname: user.surname,
  email: user.email,
  roles: parseRoles(user.roles),
  last_sign_in_at: user.last_sign_in_at,
  created_at: user.created_at,
});

/** Invitations neither used, withdrawn nor expired. */
export async function pendingInvitations(db: TDb, workspaceId: number): Promise<TPendingInvitation[]> {
  const rows = await db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.workspace_id, workspaceId),
        isNull(invitations.accepted_at),
        isNull(invitations.revoked_at),
      ),
    )
    .orderBy(invitations.id);
  return rows
    .filter((row) => row.expires_at > now())
    .map((row) => ({
      id: row.id,
      email: row.email,
      title: row.title,
      name: row.name,
      surname: row.surname,
      roles: parseRoles(row.roles),
      expires_at: new Date(row.expires_at * 1000).toISOString(),
      created_at: row.created_at,
    }));
}

const invitationParts = (row: { id: number; email: string; workspace_id: number }, expires: number) => [
  "invite",
  row.id,
  row.email,
  row.workspace_id,
  expires,
];

/**
 * One person belongs to one workspace: an address with an account cannot be invited, except a
 * member removed from this workspace, who may be invited back. Answers that removed member's id.
 */
async function refuseExistingAccount(
  db: TDb,
  workspaceId: number,
  email: string,
): Promise<number | undefined> {
  const [existing] = await db
    .select({ id: users.id, workspace_id: users.workspace_id, removed_at: users.removed_at })
    .from(users)
    .where(eq(users.email, email));
  if (!existing) return undefined;
  if (existing.workspace_id === workspaceId && existing.removed_at) return existing.id;
  const message =
    existing.workspace_id === workspaceId && !existing.removed_at
      ? `${email} is already a member of this workspace.`
      : `${email} already has a Tradewinds account in another workspace. One person belongs to one workspace: invite another address, or ask them to close that account first.`;
  throw new AppError("CONFLICT", message, { errors: { email: [message] } });
}

/** Records the invitation and mails its signed link (the outbox without SMTP). */
export async function inviteMember(
  deps: TDeps,
  inviter: TSessionUser,
  input: ReturnType<typeof ZInviteMemberInput.parse>,
): Promise<TPendingInvitation> {
  await refuseExistingAccount(deps.db, inviter.workspace_id, input.email);
  const expires = now() + INVITATION_SECONDS;
  const [row] = await deps.db
    .insert(invitations)
    .values({
      workspace_id: inviter.workspace_id,
      email: input.email,
      title: input.title,
      name: input.name,
      surname: input.surname,
      roles: input.roles.join(","),
      invited_by_user_id: inviter.id,
      expires_at: expires,
    })
    .returning();
  const [workspace] = await deps.db
    .select({ name: workspaces.name })
    .from(workspaces)
    .where(eq(workspaces.id, inviter.workspace_id));
  const signature = sign(deps.secret, invitationParts(row, expires));
  const link = `${deps.env.appUrl}/auth/accept-invitation/${row.id}?expires=${expires}&signature=${signature}`;
  await deps.mailer.send(
    invitationMail(input.email, `${inviter.name} ${inviter.surname}`, workspace?.name ?? "", link),
  );
  return (await pendingInvitations(deps.db, inviter.workspace_id)).find((i) => i.id === row.id)!;
}

const refusedLink = () =>
  new AppError(
    "FORBIDDEN",
    "This invitation link is invalid, expired or already used. Ask your admin for a new invitation.",
  );

/** The invitation a genuine, unexpired, unused link names; 403 otherwise. */
export async function openInvitation(deps: TDeps, id: number, expires: number, signature: string) {
  if (!Number.isSafeInteger(id) || !Number.isSafeInteger(expires) || expires < now()) throw refusedLink();
  const [row] = await deps.db.select().from(invitations).where(eq(invitations.id, id));
  if (!row || row.accepted_at || row.revoked_at || row.expires_at !== expires) throw refusedLink();
  if (!verifySignature(deps.secret, invitationParts(row, expires), signature)) throw refusedLink();
  const [workspace] = await deps.db
    .select({ name: workspaces.name })
    .from(workspaces)
    .where(eq(workspaces.id, row.workspace_id));
  return { row, workspaceName: workspace?.name ?? "" };
}

/**
 * Creates the member's account with the chosen password, or brings a removed member back: the same
 * account (so what they created and edited stays theirs) with the invitation's name and roles and
 * the new password. The link is spent in the same transaction.
 */
export async function acceptInvitation(
  deps: TDeps,
  id: number,
  expires: number,
  signature: string,
  password: string,
): Promise<TSessionUser> {
  const { row } = await openInvitation(deps, id, expires, signature);
  const returning = await refuseExistingAccount(deps.db, row.workspace_id, row.email);
  const password_hash = await hashPassword(password);
  const person = {
    title: row.title,
    name: row.name,
    surname: row.surname,
    password_hash,
    roles: row.roles,
    // The link reached this address: it is verified.
    email_verified_at: iso(),
  };
  const user = await deps.db
    .transaction(async (tx) => {
      const spent = await tx
        .update(invitations)
        .set({ accepted_at: iso() })
        .where(and(eq(invitations.id, row.id), isNull(invitations.accepted_at)))
        .returning({ id: invitations.id });
      if (!spent.length) throw refusedLink();
      if (returning === undefined) {
        const [created] = await tx
          .insert(users)
          .values({ ...person, workspace_id: row.workspace_id, email: row.email })
          .returning();
        return created;
      }
      const [back] = await tx
        .update(users)
        .set({ ...person, removed_at: null, updated_at: iso() })
        .where(
          and(eq(users.id, returning), eq(users.workspace_id, row.workspace_id), isNotNull(users.removed_at)),
        )
        .returning();
      // Rejoined meanwhile (another invitation accepted first): this link is spent for nothing.
      if (!back) throw refusedLink();
      return back;
    })
    .catch((error) => {
      // The address got an account meanwhile (another invitation accepted, or a sign-up, at once).
      if (!isDuplicateEmail(error)) throw error;
      const message = `${row.email} already has a Tradewinds account: sign in with it instead.`;
      throw new AppError("CONFLICT", message, { errors: { email: [message] } });
    });
  forgetUser(deps.db, user.id);
  return user;
}

/** Withdraws a pending invitation of the workspace. */
export async function revokeInvitation(db: TDb, workspaceId: number, id: number): Promise<void> {
  const revoked = await db
    .update(invitations)
    .set({ revoked_at: iso() })
    .where(
      and(eq(invitations.id, id), eq(invitations.workspace_id, workspaceId), isNull(invitations.accepted_at)),
    )
    .returning({ id: invitations.id });
  if (!revoked.length) throw notFound("This invitation does not exist");
}

async function memberOf(db: TDbOrTx, workspaceId: number, id: number): Promise<TSessionUser> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.workspace_id, workspaceId), isNull(users.removed_at)));
  if (!user) throw notFound("This member does not exist");
  return user;
}

/** The workspace keeps at least one admin: refuses a change that would leave none. */
async function keepAnAdmin(db: TDbOrTx, workspaceId: number, leaving: number, message: string) {
  const admins = (await listMembers(db, workspaceId)).filter(
    (m) => m.id !== leaving && m.roles.includes("admin"),
  );
  if (!admins.length) throw new AppError("CONFLICT", message);
}

/**
 * Pending invitations an admin sent stop working when they stop being an admin (removed or
 * demoted): an invitation carries its sender's authority.
 */
async function revokeInvitationsSentBy(tx: TDbOrTx, workspaceId: number, userId: number) {
  await tx
    .update(invitations)
    .set({ revoked_at: iso() })
    .where(
      and(
        eq(invitations.workspace_id, workspaceId),
        eq(invitations.invited_by_user_id, userId),
        isNull(invitations.accepted_at),
        isNull(invitations.revoked_at),
      ),
    );
}

/**
 * Changes a member's roles. The last-admin and two-compliance checks and the write are one write
 * transaction, so two admins demoting or removing each other at once cannot both pass the check.
 */
export async function changeRoles(
  db: TDb,
  workspaceId: number,
  id: number,
  roles: TRole[],
): Promise<TMember> {
  const user = await db.transaction(async (tx) => {
    const member = await memberOf(tx, workspaceId, id);
    const losesAdmin = parseRoles(member.roles).includes("admin") && !roles.includes("admin");
    if (losesAdmin) {
      await keepAnAdmin(
        tx,
        workspaceId,
        id,
        "The workspace's last admin cannot lose the Admin role: make another member admin first.",
      );
      await revokeInvitationsSentBy(tx, workspaceId, id);
    }
    if (!roles.includes("compliance")) await keepTwoComplianceIfRequired(tx, workspaceId, id);
    const [changed] = await tx
      .update(users)
      .set({ roles: roles.join(","), updated_at: iso() })
      .where(eq(users.id, id))
      .returning();
    return changed;
  });
  // The member's open sessions see the new roles at once.
  forgetUser(db, id);
  return toMember(user);
}

/**
 * Removes a member: no more sign-in, sessions end at once, records stay attributed to them, and
 * the invitations they sent stop working. Checks and write are one write transaction.
 */
export async function removeMember(db: TDb, workspaceId: number, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const member = await memberOf(tx, workspaceId, id);
    if (parseRoles(member.roles).includes("admin")) {
      await keepAnAdmin(
        tx,
        workspaceId,
        id,
        "The workspace's last admin cannot be removed: make another member admin first.",
      );
    }
    await keepTwoComplianceIfRequired(tx, workspaceId, id);
    await tx.update(users).set({ removed_at: iso(), updated_at: iso() }).where(eq(users.id, id));
    await revokeInvitationsSentBy(tx, workspaceId, id);
  });
  await invalidateUserSessions(db, id);
}

/** Compliance members of the workspace. */
export async function complianceCount(db: TDbOrTx, workspaceId: number, leaving?: number): Promise<number> {
  return (await listMembers(db, workspaceId)).filter(
    (m) => m.id !== leaving && m.roles.includes("compliance"),
  ).length;
}

/** With two-person release on, the workspace must keep two compliance members. */
async function keepTwoComplianceIfRequired(db: TDbOrTx, workspaceId: number, leaving: number) {
  const member = await memberOf(db, workspaceId, leaving);
  if (!parseRoles(member.roles).includes("compliance")) return;
  if (!(await twoPersonRelease(db, workspaceId))) return;
  if ((await complianceCount(db, workspaceId, leaving)) < 2) {
    throw new AppError(
      "CONFLICT",
      "Two-person release needs two compliance members: switch it off first, or give another member the Compliance role.",
    );
  }
}

export async function twoPersonRelease(db: TDbOrTx, workspaceId: number): Promise<boolean> {
  const [row] = await db
    .select({ on: workspaces.two_person_release })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return Boolean(row?.on);
}

/**
 * Switches two-person release; on only with at least two compliance members. A change (not a save
 * of the same value) is written to the settings audit log with who made it, in the same transaction.
 */
export async function setTwoPersonRelease(
  db: TDb,
  workspaceId: number,
  on: boolean,
  by: { id: number; email: string },
): Promise<void> {
  // One write transaction: a compliance member removed meanwhile cannot slip past the count.
  await db.transaction(async (tx) => {
    if (on && (await complianceCount(tx, workspaceId)) < 2) {
      const message =
        "Two-person release needs at least two members with the Compliance role: give another member the role first.";
      throw new AppError("VALIDATION", message, { errors: { two_person_release: [message] } });
    }
    const was = await twoPersonRelease(tx, workspaceId);
    if (was === on) return;
    await tx.update(workspaces).set({ two_person_release: on }).where(eq(workspaces.id, workspaceId));
    await tx.insert(settings_audit_log).values({
      workspace_id: workspaceId,
      user_id: by.id,
      user_email: by.email,
      setting: "two_person_release",
      previous_value: was,
      value: on,
    });
  });
}
