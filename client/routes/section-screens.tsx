import { useLoaderData, useRouteContext } from "@tanstack/react-router";
import type { ReactNode } from "react";
import type { z } from "zod";
import type { TDictionary } from "../../db/contracts/dictionary";
import type { TEntityScreen } from "../components/kit/entity-config";
import { EntityForm } from "../components/kit/entity-form";
import { PrintPage } from "../components/kit/print-page";

// The section pattern's create, edit and print screens (client/routes/section-routes.tsx), loaded
// lazily: the form library, the field components and the print page stay out of list screens' JS.

type TItemData<T> = { item: T; dictionaries: TDictionary };
type TScreenProps<T extends { id: number }> = { screen: TEntityScreen<T>; schema: z.ZodType };

/** The create page for one entity: a blank form with the server's defaults. */
export function CreateScreen<T extends { id: number }>({ screen, schema }: TScreenProps<T>) {
  const loaded: unknown = useLoaderData({ strict: false });
  const { dictionaries, defaults } = loaded as {
    dictionaries: TDictionary;
    defaults: Record<string, unknown>;
  };
  const { api } = useRouteContext({ from: "__root__" });
  return (
    <EntityForm
      screen={screen}
      schema={schema}
      item={null}
      dictionaries={dictionaries}
      api={api}
      defaults={defaults}
    />
  );
}

/**
 * The edit page for one entity, with optional content above the form (a contact's screening) and
 * under it, all in the form's width.
 */
export function EditScreen<T extends { id: number }>({
  screen,
  formIntro,
  schema,
  formExtras,
}: TScreenProps<T> & { formIntro?: (item: T) => ReactNode; formExtras?: (item: T) => ReactNode }) {
  const loaded: unknown = useLoaderData({ strict: false });
  const { item, dictionaries } = loaded as TItemData<T>;
  const { api } = useRouteContext({ from: "__root__" });
  // The key remounts the form when another record opens in the same route.
  return (
    <div className="max-w-4xl">
      <EntityForm
        key={item.id}
        screen={screen}
        item={item}
        dictionaries={dictionaries}
        schema={schema}
        api={api}
        intro={formIntro?.(item)}
      />
      {formExtras?.(item)}
    </div>
  );
}

/** The print page for one entity. */
export function PrintScreen<T extends { id: number }>({ screen }: Pick<TScreenProps<T>, "screen">) {
  const loaded: unknown = useLoaderData({ strict: false });
  const { item, dictionaries } = loaded as TItemData<T>;
  return <PrintPage screen={screen} item={item} dictionaries={dictionaries} />;
}
