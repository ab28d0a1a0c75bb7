import { eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ZChangeEmailInput, ZChangePasswordInput, ZProfileInput } from "../../../db/contracts/auth";
import { users } from "../../../db/schema";
import type { TAppEnv } from "../../lib/context";
import { AppError, notFound } from "../../lib/errors";
import { newStorageKey } from "../../lib/storage";
import { validate } from "../../lib/validate";
import { authOf, requireAuth } from "../auth/auth.middleware";
import { ALREADY_REGISTERED, hashPassword, sendVerification, toPublicUser } from "../auth/auth.service";
import { emailChangedMail, passwordChangedMail } from "../auth/auth-mail";
import { forgetUser, invalidateUserSessions, type TSessionUser } from "../auth/session.service";

export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const IMAGE_TYPE_MESSAGE = "You can only upload JPG/PNG file!";
export const IMAGE_SIZE_MESSAGE = "Image must smaller than 2MB!";

/** JPEG or PNG by the file's first bytes; the name and the declared type prove nothing. */
export function sniffImage(bytes: Uint8Array): "image/jpeg" | "image/png" | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return "image/png";
  return null;
}

const now = () => new Date().toISOString();

async function saveUser(c: Context<TAppEnv>, id: number, values: Partial<TSessionUser>) {
  const [user] = await c.var.db
    .update(users)
    .set({ ...values, updated_at: now() })
    .where(eq(users.id, id))
    .returning();
  forgetUser(c.var.db, id);
  return user;
}

/** Stores an uploaded avatar or signature after checking its type by content and its size. */
const uploadImage =
  (field: "photo" | "signature", column: "image_key" | "signature_key", message: string) =>
  async (c: Context<TAppEnv>) => {
    const { user } = authOf(c);
    const body = await c.req.parseBody().catch(() => {
      throw new AppError("VALIDATION", "Send the image as multipart/form-data", {
        errors: { [field]: ["Send the image as multipart/form-data"] },
      });
    });
    const file = body[field];
    if (!(file instanceof File)) {
      throw new AppError("VALIDATION", `Choose an image to upload in the field "${field}"`, {
        errors: { [field]: [`Choose an image to upload in the field "${field}"`] },
      });
    }
    if (file.size >= IMAGE_MAX_BYTES) {
      throw new AppError("VALIDATION", IMAGE_SIZE_MESSAGE, { errors: { [field]: [IMAGE_SIZE_MESSAGE] } });
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (!sniffImage(bytes)) {
      throw new AppError("VALIDATION", IMAGE_TYPE_MESSAGE, { errors: { [field]: [IMAGE_TYPE_MESSAGE] } });
    }
    const key = newStorageKey(column === "image_key" ? "avatars" : "signatures");
    await c.var.storage.put(key, bytes);
    const previous = user[column];
    const updated = await saveUser(c, user.id, { [column]: key });
    if (previous) await c.var.storage.delete(previous);
    return c.json({ user: toPublicUser(updated), messages: [message] });
  };

/** Serves the caller's own avatar or signature. */
const serveImage = (column: "image_key" | "signature_key") => async (c: Context<TAppEnv>) => {
  const key = authOf(c).user[column];
  const blob = key ? await c.var.storage.get(key) : null;
  if (!blob) throw notFound();
  const bytes = new Uint8Array(await blob.arrayBuffer());
  c.header("Content-Type", sniffImage(bytes) ?? "application/octet-stream");
  c.header("Cache-Control", "private, max-age=86400");
  return c.body(bytes);
};

/**
 * Multipart bodies past this are cut off before they are read: the image limit plus form overhead.
 * Such a body holds an image of more than 2 MB, so it gets the same 422 and message as one just over
 * the limit (the spec's 'Image must smaller than 2MB!'), not a bare 413.
 */
const imageBodyLimit = (field: "photo" | "signature") =>
  bodyLimit({
    maxSize: IMAGE_MAX_BYTES + 64 * 1024,
    onError: () => {
      throw new AppError("VALIDATION", IMAGE_SIZE_MESSAGE, { errors: { [field]: [IMAGE_SIZE_MESSAGE] } });
    },
  });

/** The signed-in user's own account: profile, e-mail, password, avatar and signature. */
export const userRoutes = new Hono<TAppEnv>()
  // The spec lets the avatar upload carry the session as a query parameter as well.
  .use("/uploadPicture", requireAuth({ allowQueryToken: "session" }))
  .use(requireAuth())
  /** GET /user → {user}. */
  .get("/", (c) => c.json({ user: toPublicUser(authOf(c).user) }))
  /** POST /user {name, surname, title} → {user}. */
  .post("/", validate("json", ZProfileInput), async (c) => {
    const user = await saveUser(c, authOf(c).user.id, c.req.valid("json"));
    return c.json({ user: toPublicUser(user), messages: ["Account updated"] });
  })
  /**
   * POST /user/changeEmail {email, old_password}: needs the current password; the new address is
   * unverified until its link is followed, and the old address is told of the change.
   */
  .post("/changeEmail", validate("json", ZChangeEmailInput), async (c) => {
    const { user } = authOf(c);
    const { email, old_password } = c.req.valid("json");
    if (!(await Bun.password.verify(old_password, user.password_hash))) {
      throw new AppError("VALIDATION", "E-mail address update failed", {
        errors: { old_password: ["The current password is not correct."] },
      });
    }
    if (email === user.email) return c.json({ user: toPublicUser(user), messages: ["No changes"] });
    const [taken] = await c.var.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, email))
      .limit(1);
    if (taken) {
      throw new AppError("VALIDATION", "E-mail address update failed", {
        errors: { email: [ALREADY_REGISTERED] },
      });
    }
    const updated = await saveUser(c, user.id, { email, email_verified_at: null });
    await sendVerification(c.var, updated).catch((error) =>
      c.var.logger.error("could not send the verification e-mail", { error: String(error) }),
    );
    await c.var.mailer
      .send(emailChangedMail(user.email, email, `${c.var.env.appUrl}/auth/login`))
      .catch((error) => c.var.logger.error("could not tell the old address", { error: String(error) }));
    return c.json({ user: toPublicUser(updated), messages: ["E-mail address updated"] });
  })
  /** POST /user/changePassword {old_password, password}: ends every other session of the user. */
  .post("/changePassword", validate("json", ZChangePasswordInput), async (c) => {
    const { user, session } = authOf(c);
    const { old_password, password } = c.req.valid("json");
    if (!(await Bun.password.verify(old_password, user.password_hash))) {
      throw new AppError("VALIDATION", "Password update failed", {
        errors: { old_password: ["The current password is not correct."] },
      });
    }
    const updated = await saveUser(c, user.id, { password_hash: await hashPassword(password) });
    await invalidateUserSessions(c.var.db, user.id, session.id);
    await c.var.mailer
      .send(passwordChangedMail(user.email, `${c.var.env.appUrl}/auth/login`))
      .catch((error) =>
        c.var.logger.error("could not send the password-changed e-mail", { error: String(error) }),
      );
    return c.json({ user: toPublicUser(updated), messages: ["Password updated"] });
  })
  .post(
    "/uploadPicture",
    imageBodyLimit("photo"),
    uploadImage("photo", "image_key", "Avatar upload successfully."),
  )
  .post(
    "/uploadSignature",
    imageBodyLimit("signature"),
    uploadImage("signature", "signature_key", "Signature uploaded successfully."),
  )
  .get("/picture", serveImage("image_key"))
  .get("/signature", serveImage("signature_key"));
