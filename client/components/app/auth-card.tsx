import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";

/** The centred card the public account screens share, with the legal links the spec asks for. */
export function AuthCard({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description?: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-md py-8">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-xl font-semibold">{title}</h1>
          </CardTitle>
          {description && <CardDescription>{description}</CardDescription>}
        </CardHeader>
        <CardContent className="space-y-4">
          {children}
          {footer && <div className="text-sm text-muted-foreground">{footer}</div>}
        </CardContent>
      </Card>
      <nav aria-label="Legal" className="mt-4 flex justify-center gap-4 text-xs text-muted-foreground">
        <Link to="/legal/terms" className="hover:underline">
          Terms
        </Link>
        <Link to="/legal/help" className="hover:underline">
          Help
        </Link>
        <Link to="/legal/privacy" className="hover:underline">
          Privacy
        </Link>
      </nav>
    </div>
  );
}
