import { z } from "zod";
import { TITLES } from "./auth";

/**
 * A member's roles in the workspace. admin: members, roles, the exporter profile, the EAR and
 * screening list editions, workspace settings. compliance: releasing screening hits and licence
 * holds, overrides and review dates. shipper: contacts, products, licences, shipments, paperwork.
 */
export const ROLES = ["admin", "compliance", "shipper"] as const;
export type TRole = (typeof ROLES)[number];

export const ROLE_LABELS: Record<TRole, string> = {
  admin: "Admin",
  compliance: "Compliance",
  shipper: "Shipper",
};

/** Who may make a writing call: a role, or any signed-in member (their own account, signing out). */
export type TWriteRight = TRole | "member";

/** The roles a member holds. An admin also does the shipper's work, so a workspace of one works. */
export function holdsRight(roles: readonly TRole[], right: TWriteRight): boolean {
  if (right === "member") return true;
  if (roles.includes(right)) return true;
  return right === "shipper" && roles.includes("admin");
}

/** The stored comma list → the roles it names, in ROLES order. */
export const parseRoles = (stored: string | null | undefined): TRole[] =>
  ROLES.filter((role) => (stored ?? "").split(",").includes(role));

const ZRoles = z
  .array(z.enum(ROLES, { error: "Roles are admin, compliance and shipper." }), {
    error: "Please pick at least one role.",
  })
  .min(1, "Please pick at least one role.")
  .max(ROLES.length)
  .transform((roles) => ROLES.filter((role) => roles.includes(role)));

const required = (message: string) =>
  z.string({ error: message }).trim().min(1, message).max(255, "Please use at most 255 characters.");

export const ZInviteMemberInput = z.object({
  email: z
    .string({ error: "Please input the E-mail address!" })
    .trim()
    .min(1, "Please input the E-mail address!")
    .max(254, "The input is not valid E-mail address!")
    .pipe(z.email({ error: "The input is not valid E-mail address!" }))
    .transform((v) => v.toLowerCase()),
  title: z.enum(TITLES, { error: "Please input the Title!" }),
  name: required("Please input the Name!"),
  surname: required("Please input the Last Name!"),
  roles: ZRoles,
});
export type TInviteMemberInput = z.input<typeof ZInviteMemberInput>;

export const ZMemberRolesInput = z.object({ roles: ZRoles });

export const ZWorkspaceSettingsInput = z.object({
  two_person_release: z.boolean({ error: "two_person_release is true or false." }),
});

export type TMember = {
  id: number;
  title: string;
  name: string;
  surname: string;
  email: string;
  roles: TRole[];
  /** ISO timestamp of the member's latest session start, or null. */
  last_sign_in_at: string | null;
  created_at: string;
};

export type TPendingInvitation = {
  id: number;
  email: string;
  title: string;
  name: string;
  surname: string;
  roles: TRole[];
  expires_at: string;
  created_at: string;
};
