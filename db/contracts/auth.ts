import { z } from "zod";

/** Validation for accounts, shared by the server and the forms; messages are the spec's, word for word. */
export const TITLES = ["Mr.", "Mrs.", "Ms."] as const;
export const ACCOUNT_TITLES = [...TITLES, "None"] as const;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

const required = (message: string) =>
  z.string({ error: message }).trim().min(1, message).max(255, "Please use at most 255 characters.");

const password = (message: string) =>
  z
    .string({ error: message })
    .min(1, message)
    .min(PASSWORD_MIN, `The password must be at least ${PASSWORD_MIN} characters.`)
    .max(PASSWORD_MAX, `The password must be at most ${PASSWORD_MAX} characters.`);

const email = (requiredMessage: string, invalidMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(254, invalidMessage)
    .pipe(z.email({ error: invalidMessage }))
    .transform((v) => v.toLowerCase());

export const ZLoginInput = z.object({
  email: email("Please input your E-mail address!", "The input is not valid E-mail address!"),
  password: z
    .string({ error: "Please input your Password!" })
    .min(1, "Please input your Password!")
    .max(PASSWORD_MAX),
  // Without rememberMe the cookie is a session cookie (spec section 4); the login form always sends it.
  rememberMe: z.boolean().optional().default(false),
});

export const ZRegisterInput = z.object({
  title: z.enum(TITLES, { error: "Please input your Title!" }),
  name: required("Please input your Name!"),
  surname: required("Please input your Last Name!"),
  email: email("Please input your E-mail address!", "The input is not valid E-mail address!"),
  password: password("Please input your Password!"),
});

export const ZForgotPasswordInput = z.object({
  email: email("Please input your E-mail address!", "The input is not valid E-mail address!"),
});

export const ZResetPasswordInput = z.object({ password: password("Please input your new Password!") });

export const ZProfileInput = z.object({
  title: z.enum(ACCOUNT_TITLES, { error: "Please pick your Title!" }),
  name: required("Please input your First Name!"),
  surname: required("Please input your Last Name!"),
});

/** Changing the address needs the current password: a session left open must not hand over the account. */
export const ZChangeEmailInput = z.object({
  email: email("Please input your E-mail!", "The input is not valid E-mail!"),
  old_password: z
    .string({ error: "Please input your current password to change your e-mail address." })
    .min(1, "Please input your current password to change your e-mail address.")
    .max(PASSWORD_MAX),
});

export const ZChangePasswordInput = z.object({
  old_password: z
    .string({ error: "Please input your Password!" })
    .min(1, "Please input your Password!")
    .max(PASSWORD_MAX),
  password: password("Please input your new Password!"),
});

export type TLoginInput = z.input<typeof ZLoginInput>;
export type TRegisterInput = z.input<typeof ZRegisterInput>;
export type TProfileInput = z.input<typeof ZProfileInput>;

/** A user as the API shows it: never a password hash or a token. */
export type TPublicUser = {
  id: number;
  workspace_id: number;
  title: string;
  name: string;
  surname: string;
  email: string;
  image_url: string | null;
  signature_url: string | null;
  email_verified_at: string | null;
  /** The member's roles in the workspace (db/contracts/members.ts), so screens hide what they cannot do. */
  roles: ("admin" | "compliance" | "shipper")[];
  created_at: string;
  updated_at: string;
};
