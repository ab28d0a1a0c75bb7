import { Link, useRouter } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { Button } from "../ui/button";

/** Title row of a screen, with optional actions on the right. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      {children && <div className="flex flex-wrap items-center gap-2">{children}</div>}
    </div>
  );
}

/** Spec: 'An error occured' page with the message, Home and Reload; unhandled render errors show it. */
export function ErrorScreen({ message }: { message: string }) {
  return (
    <div role="alert" className="mx-auto max-w-xl py-16 text-center">
      <h1 className="text-2xl font-semibold">An error occured</h1>
      <p className="mt-3 text-muted-foreground">{message}</p>
      <div className="mt-6 flex justify-center gap-2">
        <Button asChild variant="outline">
          <a href="/home">Home</a>
        </Button>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </div>
    </div>
  );
}

/** Any path the app does not know: 'Page not found.' */
export function PageNotFound() {
  return (
    <div className="mx-auto max-w-xl py-16 text-center">
      <p className="text-5xl font-bold text-muted-foreground">404</p>
      <h1 className="mt-3 text-xl font-semibold">Page not found.</h1>
      <Button asChild variant="link" className="mt-4">
        <Link to="/home">Go to the dashboard</Link>
      </Button>
    </div>
  );
}

/** A record that does not exist (or is not the visitor's): 404 'Not found' with Back and Home. */
export function NotFoundScreen() {
  const router = useRouter();
  return (
    <div className="mx-auto max-w-xl py-16 text-center">
      <p className="text-5xl font-bold text-muted-foreground">404</p>
      <h1 className="mt-3 text-xl font-semibold">Not found</h1>
      <div className="mt-6 flex justify-center gap-2">
        <Button variant="outline" onClick={() => router.history.back()}>
          Back
        </Button>
        <Button asChild>
          <Link to="/home">Home</Link>
        </Button>
      </div>
    </div>
  );
}

/**
 * An honest empty state for a screen whose feature is not built yet: it says what will be
 * here and does not pretend to work.
 */
export function PlannedScreen({
  title,
  what,
  children,
}: {
  title: string;
  what: string;
  children?: ReactNode;
}) {
  return (
    <section>
      <PageHeader title={title}>{children}</PageHeader>
      <div
        className="rounded-lg border border-dashed bg-muted/30 p-10 text-center"
        data-testid="planned-screen"
      >
        <p className="font-medium">Not available yet</p>
        <p className="mx-auto mt-2 max-w-prose text-sm text-muted-foreground">{what}</p>
      </div>
    </section>
  );
}
