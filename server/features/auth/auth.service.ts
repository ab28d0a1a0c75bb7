import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { eq, lt } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import type { TPublicUser } from "../../../db/contracts/auth";
import { parseRoles } from "../../../db/contracts/members";
import { used_signatures, users, workspaces } from "../../../db/schema";
import type { TEnv } from "../../env";
import { AppError } from "../../lib/errors";
import type { TMailer } from "../../lib/mailer";
import { sign, verifySignature } from "../../lib/signing";
import { alreadyRegisteredMail, resetMail, verificationMail } from "./auth-mail";
import { forgetUser, invalidateUserSessions, type TSessionUser } from "./session.service";

export const RESET_LINK_SECONDS = 60 * 60;
export const VERIFY_LINK_SECONDS = 24 * 60 * 60;

type TDeps = { db: TDb; env: TEnv; mailer: TMailer; secret: string };

const now = () => Math.floor(Date.now() / 1000);

/** The user as the API shows it: never the password hash; images as URLs that serve them to their owner. */
export function toPublicUser(user: TSessionUser): TPublicUser {
  const version = (key: string | null) => key?.split("/").pop()?.slice(0, 12);
  return {
    id: user.id,
    workspace_id: user.workspace_id,
    title: user.title,
    name: user.name,
    surname: user.surname,
    email: user.email,
    image_url: user.image_key ? `/api/user/picture?v=${version(user.image_key)}` : null,
    signature_url: user.signature_key ? `/api/user/signature?v=${version(user.signature_key)}` : null,
    email_verified_at: user.email_verified_at,
    roles: parseRoles(user.roles),
    created_at: user.created_at,
    updated_at: user.updated_at,
  };
}

export const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: "argon2id" });

// A real argon2id hash to verify against when the e-mail is unknown, so both paths take the same time.
let dummyHash: Promise<string> | undefined;

/** Checks credentials; the same failure whether the e-mail exists or not. */
export async function verifyCredentials(
  db: TDb,
  email: string,
  password: string,
): Promise<TSessionUser | null> {
  const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  if (!user) {
    dummyHash ??= hashPassword("not-a-real-password-000");
    await Bun.password.verify(password, await dummyHash);
    return null;
  }
  const isGenuine = await Bun.password.verify(password, user.password_hash);
  // A member an admin removed signs in no more; their records stay attributed to them.
  return isGenuine && !user.removed_at ? user : null;
}

/** True when the error is SQLite's unique-constraint failure on users.email. */
export function isDuplicateEmail(error: unknown): boolean {
  const text = `${error instanceof Error ? error.message : ""} ${(error as { cause?: Error })?.cause?.message ?? ""}`;
  return /UNIQUE constraint failed: users\.email/.test(text);
}

export const ALREADY_REGISTERED = "This e-mail address is already registered";

/**
 * Creates a workspace owned by the new user in one transaction, then sends the verification e-mail.
 * An address that already has an account gets a mail telling its owner instead, and the caller
 * answers exactly as for a new one (null here), so registering cannot be used to find accounts.
 */
export async function registerUser(
  deps: TDeps,
  input: { title: string; name: string; surname: string; email: string; password: string },
  log: (message: string, fields?: Record<string, unknown>) => void,
): Promise<TSessionUser | null> {
  const password_hash = await hashPassword(input.password);
  let user: TSessionUser;
  try {
    user = await deps.db.transaction(async (tx) => {
      const [workspace] = await tx
        .insert(workspaces)
        .values({ name: `${input.name} ${input.surname}` })
        .returning();
      const [created] = await tx
        .insert(users)
        .values({
          workspace_id: workspace.id,
          title: input.title,
          name: input.name,
          surname: input.surname,
          email: input.email,
          password_hash,
        })
        .returning();
      await tx.update(workspaces).set({ owner_user_id: created.id }).where(eq(workspaces.id, workspace.id));
      return created;
    });
  } catch (error) {
    if (isDuplicateEmail(error)) {
      // One mail either way (this one, or the verification below), so both answers take as long.
      const mail = alreadyRegisteredMail(
        input.email,
        `${deps.env.appUrl}/auth/login`,
        `${deps.env.appUrl}/auth/forgot-password`,
      );
      await deps.mailer
        .send(mail)
        .catch((e) => log("could not send the already-registered e-mail", { error: String(e) }));
      return null;
    }
    throw error;
  }
  await sendVerification(deps, user).catch((error) =>
    log("could not send the verification e-mail", { to: user.email, error: String(error) }),
  );
  return user;
}

/** Sends a signed link that marks the user's current address verified. */
export async function sendVerification(deps: TDeps, user: TSessionUser): Promise<void> {
  const expires = now() + VERIFY_LINK_SECONDS;
  const signature = sign(deps.secret, ["verify", user.id, user.email, expires]);
  const link = `${deps.env.appUrl}/api/verify/email/user?id=${user.id}&expires=${expires}&signature=${signature}`;
  await deps.mailer.send(verificationMail(user.email, link));
}

/** Marks the address verified when the link is genuine, unexpired and still names the user's address. */
export async function verifyEmail(
  deps: TDeps,
  id: number,
  expires: number,
  signature: string,
): Promise<boolean> {
  if (!Number.isSafeInteger(id) || !Number.isSafeInteger(expires) || expires < now()) return false;
  const [user] = await deps.db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!user || !verifySignature(deps.secret, ["verify", user.id, user.email, expires], signature))
    return false;
  if (!user.email_verified_at) {
    await deps.db.update(users).set({ email_verified_at: new Date().toISOString() }).where(eq(users.id, id));
    forgetUser(deps.db, id);
  }
  return true;
}

/** Sends a reset link when the address has an account; says nothing either way. */
export async function requestPasswordReset(deps: TDeps, email: string): Promise<void> {
  const [user] = await deps.db.select().from(users).where(eq(users.email, email)).limit(1);
  if (!user) return;
  const expires = now() + RESET_LINK_SECONDS;
  // The current password hash is part of what is signed, so a link dies once the password changes.
  const signature = sign(deps.secret, ["reset", user.id, expires, user.password_hash]);
  const link = `${deps.env.appUrl}/auth/reset-password/${user.id}?expires=${expires}&signature=${signature}`;
  await deps.mailer.send(resetMail(user.email, link));
}

export const INVALID_RESET_LINK =
  "This password reset link is invalid or has expired. Please request a new one.";

/**
 * True when a reset link is genuine, unexpired and unused so far (its signature covers the current
 * password hash). Checked before rate limiting, so a stranger's failed attempts never block it.
 */
export async function isResetLinkGenuine(
  deps: TDeps,
  userId: number,
  expires: number,
  signature: string,
): Promise<boolean> {
  if (!Number.isSafeInteger(userId) || !Number.isSafeInteger(expires) || expires < now()) return false;
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId)).limit(1);
  return Boolean(
    user && verifySignature(deps.secret, ["reset", user.id, expires, user.password_hash], signature),
  );
}

/**
 * Sets a new password from a reset link (once), and ends every session of the user. Resolves to the
 * account's e-mail address, so the caller can lift the login throttling the link proves unneeded.
 */
export async function resetPassword(
  deps: TDeps,
  userId: number,
  expires: number,
  signature: string,
  password: string,
): Promise<{ email: string }> {
  const refuse = () => new AppError("FORBIDDEN", INVALID_RESET_LINK);
  if (!Number.isSafeInteger(userId) || !Number.isSafeInteger(expires) || expires < now()) throw refuse();
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user || !verifySignature(deps.secret, ["reset", user.id, expires, user.password_hash], signature)) {
    throw refuse();
  }
  const password_hash = await hashPassword(password);
  const signatureHash = encodeHexLowerCase(sha256(new TextEncoder().encode(signature)));
  await deps.db.transaction(async (tx) => {
    // Recording the signature makes the link single-use even before the new hash is visible.
    const inserted = await tx
      .insert(used_signatures)
      .values({ signature_hash: signatureHash, purpose: "reset", expires_at: expires })
      .onConflictDoNothing()
      .returning();
    if (inserted.length === 0) throw refuse();
    await tx
      .update(users)
      .set({ password_hash, updated_at: new Date().toISOString() })
      .where(eq(users.id, userId));
  });
  await invalidateUserSessions(deps.db, userId);
  return { email: user.email };
}

/** Drops records of used links that have expired anyway. */
export async function purgeUsedSignatures(db: TDb): Promise<void> {
  await db.delete(used_signatures).where(lt(used_signatures.expires_at, now()));
}
