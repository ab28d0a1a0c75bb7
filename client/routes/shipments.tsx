import {
  createRoute,
  Link,
  lazyRouteComponent,
  notFound,
  useLoaderData,
  useNavigate,
  useRouteContext,
  useRouter,
} from "@tanstack/react-router";
import { PlusIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import type { TDictionary, TDictionaryName } from "../../db/contracts/dictionary";
import type { TShipment } from "../../db/contracts/shipments";
import { PageHeader } from "../components/app/screens";
import { ErrorPanel } from "../components/kit/error-panel";
import { Button } from "../components/ui/button";
import { Spinner } from "../components/ui/spinner";
import { shipmentsScreen } from "../features/shipments/shipments-screen";
import { ApiError } from "../lib/api";
import { rootRoute } from "./root";
import { createSectionRoutes } from "./section-routes";

const ITEM_ID = /^[1-9]\d{0,15}$/;

/** What the shipment form's selects and line editors need. */
const FORM_DICTIONARIES: TDictionaryName[] = [
  "products",
  "packages",
  "countries",
  "incoterms",
  "carriers",
  "payment_terms",
  "currencies",
  "mode_of_transports",
];

const title = (text: string) => () => ({ meta: [{ title: `${text} · Tradewinds` }] });

/** Spec section 8: 'Shipment not found', a full-page state for a missing (or another workspace's) id. */
function ShipmentNotFound() {
  const router = useRouter();
  return (
    <div className="mx-auto max-w-xl py-16 text-center" role="alert">
      <p className="text-5xl font-bold text-muted-foreground">404</p>
      <h1 className="mt-3 text-xl font-semibold">Shipment not found</h1>
      <p className="mt-2 text-sm text-muted-foreground">
        It may have been deleted, or it belongs to another workspace.
      </p>
      <div className="mt-6 flex justify-center gap-2">
        <Button variant="outline" onClick={() => router.history.back()}>
          Back
        </Button>
        <Button asChild>
          <Link to="/shipments">My Shipments</Link>
        </Button>
      </div>
    </div>
  );
}

/** 'Create Int’l Shipment' in the list: creates a draft (POST, no body), then opens its edit page. */
function CreateShipmentButton() {
  const { api } = useRouteContext({ from: "__root__" });
  const navigate = useNavigate();
  const [isBusy, setIsBusy] = useState(false);
  return (
    <Button
      disabled={isBusy}
      onClick={async () => {
        setIsBusy(true);
        try {
          const created = await api.send<{ id: number }>("POST", "/shipments");
          await navigate({ to: "/shipments/edit-shipment/$itemId", params: { itemId: String(created.id) } });
        } catch (error) {
          toast.error("Save failed", { description: (error as Error).message });
          setIsBusy(false);
        }
      }}
    >
      {isBusy ? <Spinner /> : <PlusIcon />}
      {shipmentsScreen.createLabel}
    </Button>
  );
}

async function loadShipment(
  api: { get<R>(path: string): Promise<R> },
  itemId: string,
  suffix = "",
): Promise<{ item: TShipment; unit_values?: Record<string, string> }> {
  if (!ITEM_ID.test(itemId)) throw notFound();
  try {
    return await api.get<{ item: TShipment; unit_values?: Record<string, string> }>(
      `/shipments/${itemId}${suffix}`,
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound();
    throw error;
  }
}

const [listRoute] = createSectionRoutes("shipments", "shipment", shipmentsScreen, {
  isListOnly: true,
  createAction: () => <CreateShipmentButton />,
});

type TFormData = {
  item: TShipment;
  unitValues: Record<string, string>;
  dictionaries: TDictionary;
};

/**
 * /shipments/create-shipment (spec section 4, Shipment creation): the shipment is created as a draft
 * by a call (POST, no body), then the user goes on to its edit page. The call runs in the browser
 * only, so a server render or a link preload never creates one.
 */
function CreateShipmentScreen() {
  const { api } = useRouteContext({ from: "__root__" });
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  const isStarted = useRef(false);
  useEffect(() => {
    if (isStarted.current) return;
    isStarted.current = true;
    api
      .send<{ id: number }>("POST", "/shipments")
      .then((created) =>
        navigate({
          to: "/shipments/edit-shipment/$itemId",
          params: { itemId: String(created.id) },
          replace: true,
        }),
      )
      .catch(setError);
  }, [api, navigate]);
  if (error) return <ErrorPanel error={error} />;
  return (
    <section>
      <PageHeader title="Create International Shipment" />
      <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
        <Spinner /> Creating a draft shipment…
      </p>
    </section>
  );
}

const createShipmentRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/shipments/create-shipment",
  staticData: { title: "Create International Shipment" },
  head: title("Create International Shipment"),
  component: CreateShipmentScreen,
});

const editShipmentRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/shipments/edit-shipment/$itemId",
  loader: async ({ context, params }): Promise<TFormData> => {
    context.dictionaries.forget(["products"]);
    const [loaded, dictionaries] = await Promise.all([
      loadShipment(context.api, params.itemId, "/edit"),
      context.dictionaries.load(FORM_DICTIONARIES),
    ]);
    return { item: loaded.item, unitValues: loaded.unit_values ?? {}, dictionaries };
  },
  // The spec names the shipment form page 'Create International Shipment' whether the draft is new or not.
  staticData: { title: "Create International Shipment" },
  pendingComponent: () => (
    <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
      <Spinner /> Loading the shipment…
    </p>
  ),
  head: title("Create International Shipment"),
  notFoundComponent: ShipmentNotFound,
  errorComponent: ({ error }) => <ErrorPanel error={error} />,
  // The form (lines, parties, paperwork, autosave, zod) loads with its own chunk, not with the list.
  component: lazyRouteComponent(() =>
    import("../features/shipments/shipment-form").then(({ ShipmentForm }) => ({
      default: function FormScreen() {
        const data = useLoaderData({ strict: false }) as unknown as TFormData;
        const { api, dictionaries: cache, user } = useRouteContext({ from: "__root__" });
        return (
          <ShipmentForm
            // A reload after a conflict brings a new updated_at: the form starts over from the stored shipment.
            key={`${data.item.id}:${data.item.updated_at}`}
            api={api}
            dictionaries={data.dictionaries}
            dictionaryCache={cache}
            user={user ?? null}
            item={data.item}
            unitValues={data.unitValues}
          />
        );
      },
    })),
  ),
});

export const printShipmentRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/shipments/print/$itemId",
  loader: async ({ context, params }) => {
    const [loaded, dictionaries] = await Promise.all([
      loadShipment(context.api, params.itemId),
      context.dictionaries.load([
        "incoterms",
        "carriers",
        "payment_terms",
        "currencies",
        "mode_of_transports",
        "countries",
      ]),
    ]);
    return { item: loaded.item, dictionaries };
  },
  staticData: { title: "Print · My Shipments" },
  head: title("Print · My Shipments"),
  notFoundComponent: ShipmentNotFound,
  errorComponent: ({ error }) => <ErrorPanel error={error} />,
  // The print page (with its item and package tables) loads with its own chunk.
  component: lazyRouteComponent(() => import("./shipment-print"), "PrintShipment"),
});

/** /shipments, create-shipment, edit-shipment/{itemId}, print/{itemId} (spec section 2). */
export const shipmentRoutes = [
  listRoute,
  createShipmentRoute,
  editShipmentRoute,
  printShipmentRoute,
] as const;
