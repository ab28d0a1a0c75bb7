import { revalidateLogic, useForm } from "@tanstack/react-form";
import { getRouteApi, Link, useNavigate, useRouter } from "@tanstack/react-router";
import { useState } from "react";
import { toast } from "sonner";
import { z } from "zod";
import {
  TITLES,
  type TPublicUser,
  ZForgotPasswordInput,
  ZLoginInput,
  ZRegisterInput,
  ZResetPasswordInput,
} from "../../db/contracts/auth";
import { AuthCard } from "../components/app/auth-card";
import { Form, SubmitButton } from "../components/kit/form";
import { CheckboxField, SelectField, TextField } from "../components/kit/form-fields";
import { applyServerErrors } from "../components/kit/server-errors";
import { Button } from "../components/ui/button";
import { hasServerMessage } from "../lib/server-message";
import { clearSessionExpired, safeNext } from "../lib/session";

// The log in, register, forgot and reset password screens, in a chunk of their own: the form library
// and the contracts load with them, not with every screen. Their routes are in ./auth.

// The routes' hooks by their ids: the route file (./auth) imports these screens lazily, not the other way round.
const loginRoute = getRouteApi("/auth/login");
const registerRoute = getRouteApi("/auth/register");
const forgotRoute = getRouteApi("/auth/forgot-password");
const resetRoute = getRouteApi("/auth/reset-password/$id");
const acceptInvitationRoute = getRouteApi("/auth/accept-invitation/$id");

export function LoginScreen() {
  const { next, error: postedError } = loginRoute.useSearch();
  const { api, session } = loginRoute.useRouteContext();
  const router = useRouter();
  const [failure, setFailure] = useState<string | undefined>(postedError);
  const form = useForm({
    defaultValues: { email: "", password: "", rememberMe: true },
    // The form always sends the checkbox (on by default); an API client that omits it gets a session cookie.
    validationLogic: revalidateLogic(),
    validators: { onDynamic: ZLoginInput.extend({ rememberMe: z.boolean() }) },
    onSubmit: async ({ value }) => {
      setFailure(undefined);
      try {
        const { user } = await api.send<{ user: TPublicUser }>("POST", "/login", ZLoginInput.parse(value));
        session.user = user;
        clearSessionExpired();
        // An earlier attempt's 'Login failed' must not outlive the login that worked.
        toast.dismiss();
        toast.success("Login successful");
        await router.invalidate();
        await router.navigate({ href: safeNext(next) ?? "/home" });
      } catch (error) {
        const message = hasServerMessage(error) ? error.message : "Could not log you in at this time";
        setFailure(message);
        toast.error(message);
      }
    },
  });
  return (
    <AuthCard
      title="Log in"
      description="Welcome back to Tradewinds."
      footer={
        <div className="flex justify-between">
          <Link to="/auth/forgot-password" className="text-primary hover:underline">
            Forgot password?
          </Link>
          <Link to="/auth/register" className="text-primary hover:underline">
            Register
          </Link>
        </div>
      }
    >
      <Form
        className="space-y-4"
        action={`/auth/login${next ? `?next=${encodeURIComponent(next)}` : ""}`}
        onSubmit={form.handleSubmit}
      >
        <form.Field name="email">
          {(field) => <TextField field={field} label="E-mail" type="email" autoComplete="username" />}
        </form.Field>
        <form.Field name="password">
          {(field) => (
            <TextField field={field} label="Password" type="password" autoComplete="current-password" />
          )}
        </form.Field>
        <form.Field name="rememberMe">
          {(field) => <CheckboxField field={field} label="Remember me" />}
        </form.Field>
        {failure && (
          <p role="alert" className="text-sm text-destructive">
            {failure}
          </p>
        )}
        <form.Subscribe selector={(s) => s.isSubmitting}>
          {(isBusy) => (
            <SubmitButton
              className="w-full"
              isBusy={isBusy}
              label="Log in"
              busyLabel="Logging in…"
              worksWithoutJs
            />
          )}
        </form.Subscribe>
      </Form>
    </AuthCard>
  );
}

export function RegisterScreen() {
  const { api, session } = registerRoute.useRouteContext();
  const router = useRouter();
  const { registered, error: postedError } = registerRoute.useSearch();
  const [isDone, setIsDone] = useState(registered === 1);
  const form = useForm({
    defaultValues: { title: "", name: "", surname: "", email: "", password: "" },
    // Validate on submit first, then on every change so a fixed field clears its message at once.
    validationLogic: revalidateLogic(),
    validators: { onDynamic: ZRegisterInput },
    onSubmit: async ({ value, formApi }) => {
      try {
        const registration = ZRegisterInput.parse(value);
        await api.send("POST", "/register", registration);
        toast.dismiss();
        toast.success("Registration successful");
        // Signed in at once, on to the first-run checklist; if that fails, the card says to log in.
        try {
          const { user } = await api.send<{ user: TPublicUser }>("POST", "/login", {
            email: registration.email,
            password: registration.password,
            rememberMe: true,
          });
          session.user = user;
          clearSessionExpired();
          await router.invalidate();
          await router.navigate({ href: "/home" });
        } catch {
          setIsDone(true);
        }
      } catch (error) {
        // Spec section 8: the server's messages joined with ';', else 'Registration failed' / 'Operation failed'.
        if (!hasServerMessage(error)) {
          toast.error("Registration failed", { description: "Operation failed" });
          return;
        }
        const messages = (error.body as { messages?: string[] } | null)?.messages ?? [];
        const message = applyServerErrors(formApi, error, "Registration failed");
        toast.error(messages.length ? messages.join(";") : message);
      }
    },
  });
  if (isDone) {
    return (
      <AuthCard title="Registration successful" description="Your account and workspace are ready.">
        <p className="text-sm">We sent you an e-mail to confirm your address. You can log in now.</p>
        <Button asChild className="w-full">
          <Link to="/auth/login" search={{ next: undefined }}>
            Log in
          </Link>
        </Button>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Register"
      description="Create your Tradewinds account and workspace."
      footer={
        <span>
          Already registered?{" "}
          <Link
            to="/auth/login"
            search={{ next: undefined }}
            className="text-primary underline underline-offset-4"
          >
            Log in
          </Link>
        </span>
      }
    >
      <Form className="space-y-4" action="/auth/register" onSubmit={form.handleSubmit}>
        {postedError && (
          <p role="alert" className="text-sm text-destructive">
            {postedError}
          </p>
        )}
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
          <form.Field name="name">
            {(field) => <TextField field={field} label="First name" autoComplete="given-name" />}
          </form.Field>
          <form.Field name="surname">
            {(field) => <TextField field={field} label="Last name" autoComplete="family-name" />}
          </form.Field>
        </div>
        <form.Field name="email">
          {(field) => <TextField field={field} label="E-mail" type="email" autoComplete="email" />}
        </form.Field>
        <form.Field name="password">
          {(field) => (
            <TextField field={field} label="Password" type="password" autoComplete="new-password" />
          )}
        </form.Field>
        <form.Subscribe selector={(s) => s.isSubmitting}>
          {(isBusy) => (
            <SubmitButton
              className="w-full"
              isBusy={isBusy}
              label="Register"
              busyLabel="Registering…"
              worksWithoutJs
            />
          )}
        </form.Subscribe>
      </Form>
    </AuthCard>
  );
}

export function ForgotScreen() {
  const { api } = forgotRoute.useRouteContext();
  const [isSent, setIsSent] = useState(false);
  const form = useForm({
    defaultValues: { email: "" },
    // Validate on submit first, then on every change so a fixed field clears its message at once.
    validationLogic: revalidateLogic(),
    validators: { onDynamic: ZForgotPasswordInput },
    onSubmit: async ({ value, formApi }) => {
      try {
        await api.send("POST", "/forgot/password", ZForgotPasswordInput.parse(value));
        toast.success("Password reset email sent");
        setIsSent(true);
      } catch (error) {
        toast.error(
          hasServerMessage(error)
            ? applyServerErrors(formApi, error, "Operation failed")
            : "Operation failed",
        );
      }
    },
  });
  if (isSent) {
    return (
      <AuthCard title="Reset password email sent">
        <p className="text-sm">
          If an account uses that address, it will receive a link to choose a new password. The link works
          once, for 60 minutes.
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Forgot password" description="We will e-mail you a link to choose a new password.">
      <Form className="space-y-4" onSubmit={form.handleSubmit}>
        <form.Field name="email">
          {(field) => <TextField field={field} label="E-mail" type="email" autoComplete="email" />}
        </form.Field>
        <form.Subscribe selector={(s) => s.isSubmitting}>
          {(isBusy) => (
            <SubmitButton className="w-full" isBusy={isBusy} label="Send reset link" busyLabel="Sending…" />
          )}
        </form.Subscribe>
      </Form>
    </AuthCard>
  );
}

/**
 * One password chosen through a mailed, signed link (a reset, an invitation): `send` posts it with
 * the link's query; server messages land on the field or in the error toast.
 */
function SignedLinkPasswordCard(props: {
  title: string;
  description: string;
  fieldLabel: string;
  submitLabel: string;
  busyLabel: string;
  errorTitle: string;
  send: (value: { password: string }, linkQuery: string) => Promise<void>;
  expires: number | undefined;
  signature: string | undefined;
}) {
  const form = useForm({
    defaultValues: { password: "" },
    // Validate on submit first, then on every change so a fixed field clears its message at once.
    validationLogic: revalidateLogic(),
    validators: { onDynamic: ZResetPasswordInput },
    onSubmit: async ({ value, formApi }) => {
      try {
        const query = new URLSearchParams({
          expires: String(props.expires ?? ""),
          signature: props.signature ?? "",
        });
        await props.send(value, query.toString());
      } catch (error) {
        toast.error(props.errorTitle, {
          description: hasServerMessage(error) ? applyServerErrors(formApi, error, "") : undefined,
        });
      }
    },
  });
  return (
    <AuthCard title={props.title} description={props.description}>
      <Form className="space-y-4" onSubmit={form.handleSubmit}>
        <form.Field name="password">
          {(field) => (
            <TextField field={field} label={props.fieldLabel} type="password" autoComplete="new-password" />
          )}
        </form.Field>
        <form.Subscribe selector={(s) => s.isSubmitting}>
          {(isBusy) => (
            <SubmitButton
              className="w-full"
              isBusy={isBusy}
              label={props.submitLabel}
              busyLabel={props.busyLabel}
            />
          )}
        </form.Subscribe>
      </Form>
    </AuthCard>
  );
}

export function ResetScreen() {
  const { api } = resetRoute.useRouteContext();
  const { id } = resetRoute.useParams();
  const { expires, signature } = resetRoute.useSearch();
  const navigate = useNavigate();
  const [isDone, setIsDone] = useState(false);
  if (isDone) {
    return (
      <AuthCard title="Password reset successful" description="Log in with your new password.">
        <Button
          className="w-full"
          onClick={() => navigate({ to: "/auth/login", search: { next: undefined } })}
        >
          Log in
        </Button>
      </AuthCard>
    );
  }
  return (
    <SignedLinkPasswordCard
      title="Reset password"
      description="Choose a new password of at least 8 characters."
      fieldLabel="New password"
      submitLabel="Reset password"
      busyLabel="Saving…"
      errorTitle="Error while resetting password"
      expires={expires}
      signature={signature}
      send={async (value, query) => {
        await api.send("POST", `/reset/password/user/${encodeURIComponent(id)}?${query}`, value);
        toast.success("Password reset successful");
        setIsDone(true);
      }}
    />
  );
}

/** Joins the workspace an admin invited the address to: the invitee chooses a password. */
export function AcceptInvitationScreen() {
  const { api, session } = acceptInvitationRoute.useRouteContext();
  const { id } = acceptInvitationRoute.useParams();
  const { expires, signature } = acceptInvitationRoute.useSearch();
  const router = useRouter();
  return (
    <SignedLinkPasswordCard
      title="Join your workspace"
      description="Choose a password of at least 8 characters to accept the invitation."
      fieldLabel="Password"
      submitLabel="Join"
      busyLabel="Joining…"
      errorTitle="Could not join the workspace"
      expires={expires}
      signature={signature}
      send={async (value, query) => {
        const { user } = await api.send<{ user: TPublicUser }>(
          "POST",
          `/invitations/${encodeURIComponent(id)}/accept?${query}`,
          value,
        );
        session.user = user;
        clearSessionExpired();
        toast.success("Welcome to the workspace");
        await router.invalidate();
        await router.navigate({ href: "/home" });
      }}
    />
  );
}
