import { Link } from "@tanstack/react-router";
import { CheckCircle2Icon, CircleIcon } from "lucide-react";
import { useEffect, useState } from "react";
import type { TPublicUser } from "../../../db/contracts/auth";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import type { TApi } from "../../lib/api";
import { cn } from "../../lib/utils";

type TCounts = { contacts: number; products: number };

/**
 * What a new workspace needs before its first shipment, in order: a profile with the signature the
 * paperwork carries, a partner, a product, then the shipment. Each step links to where it is done
 * and ticks itself once it is.
 */
export function FirstRunChecklist({
  api,
  user,
  hasShipments,
}: {
  api: TApi;
  user: TPublicUser | null;
  hasShipments: boolean;
}) {
  const [counts, setCounts] = useState<TCounts | null>(null);
  useEffect(() => {
    const total = (path: string) =>
      api
        .get<{ total: number }>(`${path}?per_page=1`)
        .then((page) => page.total)
        .catch(() => 0);
    void Promise.all([total("/contacts"), total("/products")]).then(([contacts, products]) =>
      setCounts({ contacts, products }),
    );
  }, [api]);
  const steps = [
    {
      label: "Your profile and signature",
      hint: "Your name, title and signature go on the paperwork.",
      to: "/user/account",
      isDone: Boolean(user?.signature_url),
    },
    {
      label: "Your first partner",
      hint: "An importer, consignee or supplier in the address book (screened as you save it).",
      to: "/contacts/create-contact",
      isDone: (counts?.contacts ?? 0) > 0,
    },
    {
      label: "Your first product",
      hint: "What you ship, with its export classification and value.",
      to: "/products/create-product",
      isDone: (counts?.products ?? 0) > 0,
    },
    {
      label: "Your first shipment",
      hint: "Parties, items, packages and paperwork in one form that saves as you go.",
      to: "/shipments/create-shipment",
      isDone: hasShipments,
    },
  ];
  const done = steps.filter((s) => s.isDone).length;
  return (
    <Card data-testid="first-run-checklist">
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg font-semibold">Get started</h2>
        </CardTitle>
        <CardDescription>
          {done} of {steps.length} done
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="space-y-2">
          {steps.map((step) => (
            <li key={step.to} className="flex items-start gap-3" data-done={step.isDone}>
              {step.isDone ? (
                <CheckCircle2Icon className="mt-0.5 size-5 shrink-0 text-emerald-600" aria-hidden />
              ) : (
                <CircleIcon className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
              )}
              <div>
                <Link
                  to={step.to}
                  className={cn(
                    "font-medium text-primary underline-offset-4 hover:underline",
                    step.isDone && "text-muted-foreground line-through",
                  )}
                >
                  {step.label}
                </Link>
                {step.isDone && <span className="sr-only"> (done)</span>}
                <p className="text-sm text-muted-foreground">{step.hint}</p>
              </div>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
