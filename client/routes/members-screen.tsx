import { revalidateLogic, useForm } from "@tanstack/react-form";
import { getRouteApi, useRouter } from "@tanstack/react-router";
import { MailPlusIcon, UserMinusIcon, UsersIcon } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { TITLES } from "../../db/contracts/auth";
import {
  ROLE_LABELS,
  ROLES,
  type TInviteMemberInput,
  type TMember,
  type TPendingInvitation,
  type TRole,
  ZInviteMemberInput,
} from "../../db/contracts/members";
import { DateTime } from "../components/app/date-time";
import { PageHeader } from "../components/app/screens";
import { contractErrors, Form, SubmitButton } from "../components/kit/form";
import { fieldErrors, SelectField, TextField } from "../components/kit/form-fields";
import { applyServerErrors } from "../components/kit/server-errors";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "../components/ui/alert-dialog";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { Checkbox } from "../components/ui/checkbox";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../components/ui/dialog";
import { Field, FieldError, FieldLabel } from "../components/ui/field";
import { Label } from "../components/ui/label";
import { Switch } from "../components/ui/switch";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../components/ui/table";
import { ApiError } from "../lib/api";
import { useRoles } from "../lib/roles";

// The route's hooks by its id: the route file (./members) imports this screen lazily.
const membersRoute = getRouteApi("/workspace/members");

const fullName = (p: { name: string; surname: string }) => `${p.name} ${p.surname}`.trim();
const messageOf = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.message ? error.message : fallback;

/** The workspace's members and roles, open invitations and the two-person release setting. */
export function MembersScreen() {
  const { members, invitations, settings } = membersRoute.useLoaderData();
  const { can } = useRoles();
  const isAdmin = can("admin");
  const [isInviting, setIsInviting] = useState(false);
  return (
    <section className="min-w-0 max-w-5xl">
      <PageHeader title="Members">
        {isAdmin && (
          <Button onClick={() => setIsInviting(true)}>
            <MailPlusIcon /> Invite
          </Button>
        )}
      </PageHeader>
      {!isAdmin && (
        <p className="mb-4 text-sm text-muted-foreground">
          Only an admin of the workspace can change members.
        </p>
      )}
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
        <TwoPersonRelease settings={settings} disabled={!isAdmin} />
        <MembersCard members={members} disabled={!isAdmin} />
        <InvitationsCard invitations={invitations} disabled={!isAdmin} />
      </div>
      {isAdmin && <InviteDialog open={isInviting} onOpenChange={setIsInviting} />}
    </section>
  );
}

function TwoPersonRelease({
  settings,
  disabled,
}: {
  settings: { two_person_release: boolean; compliance_members: number };
  disabled: boolean;
}) {
  const { api } = membersRoute.useRouteContext();
  const router = useRouter();
  const [isSaving, setIsSaving] = useState(false);
  const [refusal, setRefusal] = useState("");
  const save = async (on: boolean) => {
    setIsSaving(true);
    setRefusal("");
    try {
      await api.send("PUT", "/workspace/settings", { two_person_release: on });
      toast.success(on ? "Two-person release is on" : "Two-person release is off");
      await router.invalidate();
    } catch (error) {
      const message = messageOf(error, "The setting could not be saved");
      setRefusal(message);
      toast.error(message);
    } finally {
      setIsSaving(false);
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Release</CardTitle>
        <CardDescription>
          With two-person release, the compliance member who created or last edited a shipment, or created or
          last edited the contact, cannot clear its screening hits alone: another compliance member must. It
          needs at least two compliance members (the workspace has {settings.compliance_members}). Every
          change of this switch is recorded, with who made it, in the screening audit log.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <div className="flex items-center gap-3">
          <Switch
            id="two-person-release"
            checked={settings.two_person_release}
            disabled={disabled || isSaving}
            onCheckedChange={(on) => void save(on)}
            aria-describedby={refusal ? "two-person-release-error" : undefined}
          />
          <Label htmlFor="two-person-release">Two-person release</Label>
        </div>
        {refusal && (
          <p id="two-person-release-error" role="alert" className="mt-2 text-sm text-destructive">
            {refusal}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function MembersCard({ members, disabled }: { members: TMember[]; disabled: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Members</CardTitle>
        <CardDescription>
          Admin: members, roles, the exporter profile and editions. Compliance: clears screening hits and
          licence holds. Shipper: contacts, products, licences, shipments and paperwork.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {members.length === 0 ? (
          <EmptyState text="No members yet." />
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Member</TableHead>
                <TableHead>Roles</TableHead>
                <TableHead className="hidden sm:table-cell">Last sign-in</TableHead>
                <TableHead className="text-right">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {members.map((member) => (
                <MemberRow key={member.id} member={member} disabled={disabled} />
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

function MemberRow({ member, disabled }: { member: TMember; disabled: boolean }) {
  const { api, user } = membersRoute.useRouteContext();
  const router = useRouter();
  const [roles, setRoles] = useState<TRole[]>(member.roles);
  const [isSaving, setIsSaving] = useState(false);
  const [isRemoving, setIsRemoving] = useState(false);
  const name = fullName(member);
  const toggle = async (role: TRole, on: boolean) => {
    const next = ROLES.filter((r) => (r === role ? on : roles.includes(r)));
    const before = roles;
    setRoles(next);
    setIsSaving(true);
    try {
      await api.send("PUT", `/workspace/members/${member.id}`, { roles: next });
      toast.success(`Roles of ${name} saved`);
      await router.invalidate();
    } catch (error) {
      setRoles(before);
      toast.error(messageOf(error, "The roles could not be saved"));
    } finally {
      setIsSaving(false);
    }
  };
  const remove = async () => {
    try {
      await api.send("DELETE", `/workspace/members/${member.id}`);
      toast.success(`${name} removed`);
      await router.invalidate();
    } catch (error) {
      toast.error(messageOf(error, "The member could not be removed"));
    }
    setIsRemoving(false);
  };
  return (
    <TableRow>
      <TableCell className="whitespace-normal">
        <span className="block font-medium">{name}</span>
        <span className="block text-xs break-all whitespace-normal text-muted-foreground">
          {member.email}
        </span>
        <span className="block text-xs text-muted-foreground sm:hidden">
          Last sign-in: {member.last_sign_in_at ? <DateTime value={member.last_sign_in_at} /> : "Never"}
        </span>
      </TableCell>
      <TableCell>
        <fieldset className="flex flex-wrap gap-x-4 gap-y-2" disabled={disabled || isSaving}>
          <legend className="sr-only">Roles of {name}</legend>
          {ROLES.map((role) => {
            const id = `member-${member.id}-${role}`;
            return (
              <div key={role} className="flex items-center gap-2">
                <Checkbox
                  id={id}
                  checked={roles.includes(role)}
                  disabled={disabled || isSaving}
                  onCheckedChange={(checked) => void toggle(role, checked === true)}
                />
                <Label htmlFor={id} className="font-normal">
                  {ROLE_LABELS[role]}
                </Label>
              </div>
            );
          })}
        </fieldset>
      </TableCell>
      <TableCell className="hidden whitespace-nowrap text-sm sm:table-cell">
        {member.last_sign_in_at ? (
          <DateTime value={member.last_sign_in_at} />
        ) : (
          <span className="text-muted-foreground">Never</span>
        )}
      </TableCell>
      <TableCell className="text-right">
        {!disabled && member.id !== user?.id && (
          <>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => setIsRemoving(true)}
              aria-label={`Remove ${name}`}
            >
              <UserMinusIcon /> Remove
            </Button>
            <AlertDialog open={isRemoving} onOpenChange={setIsRemoving}>
              <AlertDialogContent>
                <AlertDialogHeader>
                  <AlertDialogTitle>Remove {name}?</AlertDialogTitle>
                  <AlertDialogDescription>
                    Their sessions end at once and they can no longer sign in. What they created stays in the
                    workspace, attributed to them.
                  </AlertDialogDescription>
                </AlertDialogHeader>
                <AlertDialogFooter>
                  <AlertDialogCancel>Cancel</AlertDialogCancel>
                  <AlertDialogAction onClick={() => void remove()}>Remove</AlertDialogAction>
                </AlertDialogFooter>
              </AlertDialogContent>
            </AlertDialog>
          </>
        )}
      </TableCell>
    </TableRow>
  );
}

function InvitationsCard({
  invitations,
  disabled,
}: {
  invitations: TPendingInvitation[];
  disabled: boolean;
}) {
  const { api } = membersRoute.useRouteContext();
  const router = useRouter();
  const withdraw = async (invitation: TPendingInvitation) => {
    try {
      await api.send("DELETE", `/workspace/members/invitations/${invitation.id}`);
      toast.success(`Invitation to ${invitation.email} withdrawn`);
      await router.invalidate();
    } catch (error) {
      toast.error(messageOf(error, "The invitation could not be withdrawn"));
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Pending invitations</CardTitle>
        <CardDescription>An invitation link works once and expires after 7 days.</CardDescription>
      </CardHeader>
      <CardContent>
        {invitations.length === 0 ? (
          <EmptyState text="No invitations are open." />
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Invited</TableHead>
                <TableHead>Roles</TableHead>
                <TableHead className="hidden sm:table-cell">Expires</TableHead>
                <TableHead className="text-right">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {invitations.map((invitation) => (
                <TableRow key={invitation.id}>
                  <TableCell className="whitespace-normal">
                    <span className="block font-medium">{fullName(invitation)}</span>
                    <span className="block text-xs break-all whitespace-normal text-muted-foreground">
                      {invitation.email}
                    </span>
                    <span className="block text-xs text-muted-foreground sm:hidden">
                      Expires <DateTime value={invitation.expires_at} />
                    </span>
                  </TableCell>
                  <TableCell>
                    <span className="flex flex-wrap gap-1">
                      {invitation.roles.map((role) => (
                        <Badge key={role} variant="secondary">
                          {ROLE_LABELS[role]}
                        </Badge>
                      ))}
                    </span>
                  </TableCell>
                  <TableCell className="hidden whitespace-nowrap text-sm sm:table-cell">
                    <DateTime value={invitation.expires_at} />
                  </TableCell>
                  <TableCell className="text-right">
                    {!disabled && (
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => void withdraw(invitation)}
                        aria-label={`Withdraw the invitation to ${invitation.email}`}
                      >
                        Withdraw
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

function EmptyState({ text }: { text: string }) {
  return (
    <div className="flex items-center gap-2 rounded-md border border-dashed p-6 text-sm text-muted-foreground">
      <UsersIcon className="size-4" aria-hidden /> {text}
    </div>
  );
}

type TInviteValues = { email: string; title: string; name: string; surname: string; roles: TRole[] };
const NO_INVITE: TInviteValues = { email: "", title: "", name: "", surname: "", roles: ["shipper"] };

function InviteDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { api } = membersRoute.useRouteContext();
  const router = useRouter();
  const form = useForm({
    defaultValues: NO_INVITE,
    validationLogic: revalidateLogic(),
    validators: { onDynamic: ({ value }) => contractErrors(ZInviteMemberInput, value) },
    onSubmit: async ({ value, formApi }) => {
      try {
        await api.send("POST", "/workspace/members", value as TInviteMemberInput);
        toast.success(`Invitation sent to ${value.email.trim()}`);
        formApi.reset(NO_INVITE);
        onOpenChange(false);
        await router.invalidate();
      } catch (error) {
        toast.error(applyServerErrors(formApi, error, "The invitation could not be sent"));
      }
    },
  });
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <Form className="grid gap-4" onSubmit={form.handleSubmit}>
          <DialogHeader>
            <DialogTitle>Invite a member</DialogTitle>
            <DialogDescription>
              They receive an e-mail with a link to choose a password and join this workspace.
            </DialogDescription>
          </DialogHeader>
          <form.Field name="email">
            {(field) => <TextField field={field} label="E-mail" type="email" autoComplete="off" />}
          </form.Field>
          <form.Field name="title">
            {(field) => (
              <SelectField
                field={field}
                label="Title"
                placeholder="Choose…"
                options={TITLES.map((t) => ({ value: t, label: t }))}
              />
            )}
          </form.Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <form.Field name="name">{(field) => <TextField field={field} label="Name" />}</form.Field>
            <form.Field name="surname">{(field) => <TextField field={field} label="Last name" />}</form.Field>
          </div>
          <form.Field name="roles">
            {(field) => {
              const errors = fieldErrors(field);
              const value = field.state.value;
              return (
                <Field data-invalid={errors.length > 0 || undefined}>
                  <fieldset aria-describedby={errors.length ? "invite-roles-error" : undefined}>
                    <legend className="mb-2 text-sm font-medium">Roles</legend>
                    <div className="flex flex-wrap gap-4">
                      {ROLES.map((role) => (
                        <div key={role} className="flex items-center gap-2">
                          <Checkbox
                            id={`invite-role-${role}`}
                            checked={value.includes(role)}
                            onCheckedChange={(checked) =>
                              field.handleChange(
                                ROLES.filter((r) => (r === role ? checked === true : value.includes(r))),
                              )
                            }
                          />
                          <FieldLabel htmlFor={`invite-role-${role}`} className="font-normal">
                            {ROLE_LABELS[role]}
                          </FieldLabel>
                        </div>
                      ))}
                    </div>
                  </fieldset>
                  <FieldError id="invite-roles-error" errors={errors} />
                </Field>
              );
            }}
          </form.Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <form.Subscribe selector={(s) => s.isSubmitting}>
              {(isSubmitting) => (
                <SubmitButton isBusy={isSubmitting} label="Send invitation" busyLabel="Sending" />
              )}
            </form.Subscribe>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
