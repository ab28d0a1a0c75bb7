import { revalidateLogic, useForm } from "@tanstack/react-form";
import { getRouteApi, useRouter } from "@tanstack/react-router";
import { type ChangeEvent, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { z } from "zod";
import {
  ACCOUNT_TITLES,
  PASSWORD_MAX,
  PASSWORD_MIN,
  type TPublicUser,
  ZChangeEmailInput,
  ZProfileInput,
} from "../../db/contracts/auth";
import { PageHeader } from "../components/app/screens";
import { Form, SubmitButton } from "../components/kit/form";
import { SelectField, TextField } from "../components/kit/form-fields";
import { applyServerErrors } from "../components/kit/server-errors";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { Label } from "../components/ui/label";
import { Spinner } from "../components/ui/spinner";
import { EarEditionCard } from "../features/export-control/ear-edition-card";
import { hasServerMessage } from "../lib/server-message";

// The route's hooks by its id: the route file (./account) imports this screen lazily, not the other way round.
const accountRoute = getRouteApi("/user/account");

/** The account form: profile, e-mail and an optional password change that needs both fields. */
/** The account form's checks; changing the e-mail address or the password needs the current password. */
const accountForm = (currentEmail: string) =>
  ZProfileInput.extend({
    email: ZChangeEmailInput.shape.email,
    old_password: z.string().max(PASSWORD_MAX),
    password: z.string().max(PASSWORD_MAX),
  }).superRefine((value, ctx) => {
    const isEmailChanged = value.email !== currentEmail;
    if (!value.old_password && !value.password && !isEmailChanged) return;
    if (!value.old_password)
      ctx.addIssue({
        code: "custom",
        path: ["old_password"],
        message: isEmailChanged && !value.password ? EMAIL_NEEDS_PASSWORD : "Please input your Password!",
      });
    if (!value.password) {
      if (!isEmailChanged)
        ctx.addIssue({ code: "custom", path: ["password"], message: "Please input your new Password!" });
    } else if (value.password.length < PASSWORD_MIN)
      ctx.addIssue({
        code: "custom",
        path: ["password"],
        message: `The password must be at least ${PASSWORD_MIN} characters.`,
      });
  });

const EMAIL_NEEDS_PASSWORD = "Please input your current password to change your e-mail address.";

export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;

export function AccountScreen() {
  const { user, api, session } = accountRoute.useRouteContext();
  const { verified } = accountRoute.useSearch();
  const router = useRouter();
  useEffect(() => {
    if (verified === 1) toast.success("E-mail address verified");
    if (verified === 0) toast.error("This verification link is invalid or has expired.");
  }, [verified]);
  if (!user) return null;

  const remember = async (next: TPublicUser) => {
    session.user = next;
    await router.invalidate();
  };

  return (
    <section className="max-w-4xl">
      <PageHeader title="User Profile" />
      <div className="grid gap-6">
        <AccountForm user={user} onSaved={remember} />
        <div className="grid gap-6 sm:grid-cols-2">
          <ImageUpload
            title="Avatar"
            description="Shown in the app. JPG or PNG, under 2 MB."
            field="photo"
            path="/user/uploadPicture"
            url={user.image_url}
            successMessage="Avatar upload successfully."
            onSaved={remember}
            upload={api.upload}
          />
          <ImageUpload
            title="Signature"
            description="Printed as your authorized signature on shipping paperwork. JPG or PNG, under 2 MB."
            field="signature"
            path="/user/uploadSignature"
            url={user.signature_url}
            successMessage="Signature uploaded successfully."
            onSaved={remember}
            upload={api.upload}
          />
        </div>
        <EarEditionCard api={api} />
      </div>
    </section>
  );
}

function AccountForm({
  user,
  onSaved,
}: {
  user: TPublicUser;
  onSaved: (user: TPublicUser) => Promise<void>;
}) {
  const { api } = accountRoute.useRouteContext();
  const initial = {
    title: user.title,
    name: user.name,
    surname: user.surname,
    email: user.email,
    old_password: "",
    password: "",
  };
  const form = useForm({
    defaultValues: initial,
    // Validate on submit first, then on every change so a fixed field clears its message at once.
    validationLogic: revalidateLogic(),
    validators: { onDynamic: accountForm(user.email) },
    onSubmit: async ({ value, formApi }) => {
      const profileChanged =
        value.title !== user.title ||
        value.name.trim() !== user.name ||
        value.surname.trim() !== user.surname;
      const email = value.email.trim().toLowerCase();
      const emailChanged = email !== user.email;
      const passwordChanged = Boolean(value.password);
      if (!profileChanged && !emailChanged && !passwordChanged) {
        toast.warning("No changes");
        return;
      }
      let latest = user;
      try {
        if (profileChanged) {
          latest = (
            await api.send<{ user: TPublicUser }>("POST", "/user", {
              title: value.title,
              name: value.name,
              surname: value.surname,
            })
          ).user;
          toast.success("Account updated");
        }
      } catch (error) {
        // Spec section 8, Account: without a server message, 'Operation failed' / 'Ann error occured' (sic).
        if (hasServerMessage(error)) toast.error(applyServerErrors(formApi, error, "Operation failed"));
        else toast.error("Operation failed", { description: "Ann error occured" });
        return;
      }
      if (emailChanged) {
        try {
          latest = (
            await api.send<{ user: TPublicUser }>("POST", "/user/changeEmail", {
              email,
              old_password: value.old_password,
            })
          ).user;
          toast.success("E-mail address updated");
        } catch (error) {
          if (hasServerMessage(error)) applyServerErrors(formApi, error, "E-mail address update failed");
          toast.error("E-mail address update failed", {
            description: hasServerMessage(error) ? undefined : "Ann error occured",
          });
        }
      }
      if (passwordChanged) {
        try {
          latest = (
            await api.send<{ user: TPublicUser }>("POST", "/user/changePassword", {
              old_password: value.old_password,
              password: value.password,
            })
          ).user;
          toast.success("Password updated");
        } catch (error) {
          if (hasServerMessage(error)) applyServerErrors(formApi, error, "Password update failed");
          toast.error("Password update failed", {
            description: hasServerMessage(error) ? undefined : "Ann error occured",
          });
        }
      }
      await onSaved(latest);
      formApi.reset({
        ...initial,
        title: latest.title,
        name: latest.name,
        surname: latest.surname,
        email: latest.email,
      });
    },
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Account</CardTitle>
        <CardDescription>
          {user.email_verified_at
            ? "Your e-mail address is verified."
            : "Your e-mail address is not verified yet."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form className="grid gap-4 sm:grid-cols-2" onSubmit={form.handleSubmit}>
          <form.Field name="title">
            {(field) => (
              <SelectField
                field={field}
                label="Title"
                options={ACCOUNT_TITLES.map((t) => ({ value: t, label: t }))}
              />
            )}
          </form.Field>
          <div className="hidden sm:block" />
          <form.Field name="name">
            {(field) => <TextField field={field} label="First name" autoComplete="given-name" />}
          </form.Field>
          <form.Field name="surname">
            {(field) => <TextField field={field} label="Last name" autoComplete="family-name" />}
          </form.Field>
          <div className="sm:col-span-2">
            <form.Field name="email">
              {(field) => <TextField field={field} label="E-mail" type="email" autoComplete="email" />}
            </form.Field>
          </div>
          <form.Field name="old_password">
            {(field) => (
              <TextField
                field={field}
                label="Current password"
                type="password"
                autoComplete="current-password"
              />
            )}
          </form.Field>
          <form.Field name="password">
            {(field) => (
              <TextField field={field} label="New password" type="password" autoComplete="new-password" />
            )}
          </form.Field>
          <div className="sm:col-span-2">
            <form.Subscribe selector={(s) => [s.isDirty && !s.isDefaultValue, s.isSubmitting] as const}>
              {([isChanged, isBusy]) => (
                <SubmitButton isBusy={isBusy} disabled={!isChanged} label="Update" busyLabel="Updating" />
              )}
            </form.Subscribe>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

type TImageUploadProps = {
  title: string;
  description: string;
  field: "photo" | "signature";
  path: string;
  url: string | null;
  successMessage: string;
  onSaved: (user: TPublicUser) => Promise<void>;
  upload: <T>(path: string, form: FormData) => Promise<T>;
};

/** Avatar or signature: checks type and size before sending, shows a preview of what is stored. */
function ImageUpload({
  title,
  description,
  field,
  path,
  url,
  successMessage,
  onSaved,
  upload,
}: TImageUploadProps) {
  const input = useRef<HTMLInputElement>(null);
  const [isBusy, setIsBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const id = `upload-${field}`;
  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    setProblem(undefined);
    if (!["image/jpeg", "image/png"].includes(file.type)) {
      setProblem("You can only upload JPG/PNG file!");
      toast.error("You can only upload JPG/PNG file!");
      return;
    }
    if (file.size >= IMAGE_MAX_BYTES) {
      setProblem("Image must smaller than 2MB!");
      toast.error("Image must smaller than 2MB!");
      return;
    }
    const form = new FormData();
    form.append(field, file);
    setIsBusy(true);
    try {
      const { user } = await upload<{ user: TPublicUser }>(path, form);
      toast.success(successMessage);
      await onSaved(user);
    } catch (error) {
      // Spec section 8, Uploads: '{file} file upload failed.' when the server said nothing useful.
      const message = hasServerMessage(error) ? error.message : `${file.name} file upload failed.`;
      setProblem(message);
      toast.error(message);
    } finally {
      setIsBusy(false);
    }
  };
  // Side by side, both cards take the row's height and their previews and buttons line up at the
  // bottom, however long each description is.
  return (
    <Card className="h-full">
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="mt-auto space-y-3">
        <div className="flex h-32 items-center justify-center rounded-md border bg-muted/40">
          {url ? (
            <img src={url} alt={`${title} preview`} className="max-h-28 max-w-full object-contain" />
          ) : (
            <span className="text-sm text-muted-foreground">No {title.toLowerCase()} yet</span>
          )}
        </div>
        <Label htmlFor={id} className="sr-only">
          {`Upload ${title.toLowerCase()}`}
        </Label>
        <input
          ref={input}
          id={id}
          type="file"
          accept="image/png,image/jpeg"
          className="sr-only"
          onChange={(e) => void onChange(e)}
        />
        <Button type="button" variant="outline" disabled={isBusy} onClick={() => input.current?.click()}>
          {isBusy && <Spinner />}
          {isBusy ? "Uploading" : `Upload ${title.toLowerCase()}`}
        </Button>
        {problem && (
          <p role="alert" className="text-sm text-destructive">
            {problem}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
