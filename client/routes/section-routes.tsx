import {
  createRoute,
  Link,
  lazyRouteComponent,
  notFound,
  redirect,
  useLoaderData,
  useRouteContext,
  useSearch,
} from "@tanstack/react-router";
import type { ReactNode } from "react";
import type { TDictionary } from "../../db/contracts/dictionary";
import { NotFoundScreen, PageHeader } from "../components/app/screens";
import type { TEntityScreen } from "../components/kit/entity-config";
import { EntityTable } from "../components/kit/entity-table";
import { ErrorPanel } from "../components/kit/error-panel";
import { Button } from "../components/ui/button";
import { ApiError } from "../lib/api";
import { listApiQuery, listSearchValidator, type TListPage, type TListSearch } from "../lib/list-search";
import { useRoles } from "../lib/roles";
import { rootRoute } from "./root";

// A route component inside a factory cannot name its own route's types, so it reads its data with
// strict: false and states the shape the loader above returns.
type TListData<T> = { page: TListPage<T>; dictionaries: TDictionary };

const ITEM_ID = /^[1-9]\d{0,15}$/;

/** The create, edit and print screens, in a chunk of their own (client/routes/section-screens.tsx). */
const sectionScreens = () => import("./section-screens");

/** Loads one record; a missing one (or another workspace's) shows the 404 'Not found' screen. */
async function loadItem<T>(
  context: { api: { get<R>(path: string): Promise<R> } },
  endpoint: string,
  itemId: string,
): Promise<T> {
  if (!ITEM_ID.test(itemId)) throw notFound();
  try {
    return (await context.api.get<{ item: T }>(`${endpoint}/${itemId}`)).item;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound();
    throw error;
  }
}

const title = (text: string) => () => ({ meta: [{ title: `${text} · Tradewinds` }] });

/**
 * The section pattern of spec section 2 for one entity: list at /{section}, create at
 * /{section}/create-{suffix}, edit at /{section}/edit-{suffix}/{itemId}, print at
 * /{section}/print/{itemId}. Data loads in route loaders (in-process during SSR).
 */
export function createSectionRoutes<
  T extends { id: number },
  TSection extends string,
  TSuffix extends string,
>(
  section: TSection,
  suffix: TSuffix,
  screen: TEntityScreen<T>,
  options: {
    listActions?: () => ReactNode;
    /** Content under the edit form. */
    formExtras?: (item: T) => ReactNode;
    /** Content between the edit page's heading and its form (e.g. a contact's screening status). */
    formIntro?: (item: T) => ReactNode;
    /** Like formExtras, loaded with the edit screen's chunk (code only the edit page needs). */
    loadFormExtras?: () => Promise<(item: T) => ReactNode>;
    /** Like formIntro, loaded with the edit screen's chunk. */
    loadFormIntro?: () => Promise<(item: T) => ReactNode>;
    /** Records the system writes (screenings) have only a list and a print page. */
    isReadOnly?: boolean;
    /** Content between the title and the table. */
    listIntro?: () => ReactNode;
    /** Replaces the create link in the list's header (e.g. a button that creates a draft first). */
    createAction?: () => ReactNode;
    /** An entity with its own create/edit/print screens takes only the list from here. */
    isListOnly?: boolean;
  } = {},
) {
  /** The form screens' chunk and the entity's contract (zod), fetched together. */
  const formScreens = () => {
    const { loadSchema } = screen;
    if (!loadSchema) throw new Error(`${screen.listTitle} has no form: its screen declares no contract`);
    return Promise.all([sectionScreens(), loadSchema()]);
  };

  const listRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: `/${section}` as `/${TSection}`,
    validateSearch: listSearchValidator(screen.columns),
    loaderDeps: ({ search }) => search,
    loader: async ({ context, deps }) => {
      const [page, dictionaries] = await Promise.all([
        context.api.get<TListPage<T>>(`${screen.endpoint}?${listApiQuery(deps)}`),
        context.dictionaries.load(screen.dictionaries),
      ]);
      // A page past the end (a bookmark, or the last row of the last page just deleted) goes to
      // the last real page instead of showing '41-40 of 40 items'.
      if (page.data.length === 0 && page.total > 0 && (deps.page ?? 1) > page.last_page) {
        throw redirect({
          to: `/${section}` as string,
          search: { ...deps, page: page.last_page > 1 ? page.last_page : undefined } as never,
          replace: true,
        });
      }
      return { page, dictionaries: dictionaries as TDictionary };
    },
    staticData: { title: screen.listTitle },
    head: title(screen.listTitle),
    // No pending component: while a page, sort or filter loads, the table keeps its frame and rows
    // and shows its own spinner (EntityTable), instead of the whole screen turning into a skeleton.
    errorComponent: ({ error }) => (
      <section>
        <PageHeader title={screen.listTitle} />
        <ErrorPanel error={error} />
      </section>
    ),
    component: function ListScreen() {
      const loaded: unknown = useLoaderData({ strict: false });
      const { page, dictionaries } = loaded as TListData<T>;
      const search = useSearch({ strict: false }) as TListSearch;
      const { api } = useRouteContext({ from: "__root__" });
      // Creating is the shipper's work (an admin's too): others see the list read-only.
      const mayCreate = useRoles().can("shipper");
      return (
        <section>
          <PageHeader title={screen.listTitle}>
            {options.listActions?.()}
            {mayCreate && options.createAction?.()}
            {mayCreate && !options.createAction && screen.createLabel && (
              <Button asChild>
                <Link to={screen.paths.create}>{screen.createLabel}</Link>
              </Button>
            )}
          </PageHeader>
          {options.listIntro?.()}
          <EntityTable screen={screen} page={page} search={search} dictionaries={dictionaries} api={api} />
        </section>
      );
    },
  });

  const createScreenRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: `/${section}/create-${suffix}` as `/${TSection}/create-${TSuffix}`,
    loader: async ({ context }) => {
      const [blank, dictionaries] = await Promise.all([
        context.api.get<{ defaults?: Record<string, unknown> }>(`${screen.endpoint}/edit`),
        context.dictionaries.load(screen.dictionaries),
      ]);
      return { defaults: blank.defaults ?? {}, dictionaries: dictionaries as TDictionary };
    },
    staticData: { title: screen.createTitle },
    head: title(screen.createTitle),
    errorComponent: ({ error }) => <ErrorPanel error={error} />,
    // Forms load with their own chunk: list screens never download the form machinery.
    component: lazyRouteComponent(() =>
      formScreens().then(([{ CreateScreen }, schema]) => ({
        default: () => <CreateScreen screen={screen} schema={schema} />,
      })),
    ),
  });

  const editRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: `/${section}/edit-${suffix}/$itemId` as `/${TSection}/edit-${TSuffix}/$itemId`,
    loader: async ({ context, params }) => {
      const [item, dictionaries] = await Promise.all([
        loadItem<T>(context, screen.endpoint, (params as { itemId: string }).itemId),
        context.dictionaries.load(screen.dictionaries),
      ]);
      return { item, dictionaries: dictionaries as TDictionary };
    },
    staticData: { title: screen.editTitle },
    head: title(screen.editTitle),
    notFoundComponent: NotFoundScreen,
    errorComponent: ({ error }) => <ErrorPanel error={error} />,
    component: lazyRouteComponent(() =>
      Promise.all([formScreens(), options.loadFormIntro?.(), options.loadFormExtras?.()]).then(
        ([[{ EditScreen }, schema], intro, extras]) => ({
          default: () => (
            <EditScreen
              screen={screen}
              schema={schema}
              formIntro={intro ?? options.formIntro}
              formExtras={extras ?? options.formExtras}
            />
          ),
        }),
      ),
    ),
  });

  const printRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: `/${section}/print/$itemId` as `/${TSection}/print/$itemId`,
    loader: async ({ context, params }) => {
      const [item, dictionaries] = await Promise.all([
        loadItem<T>(context, screen.endpoint, (params as { itemId: string }).itemId),
        context.dictionaries.load(screen.dictionaries),
      ]);
      return { item, dictionaries: dictionaries as TDictionary };
    },
    staticData: { title: `Print · ${screen.listTitle}` },
    head: title(`Print · ${screen.listTitle}`),
    notFoundComponent: NotFoundScreen,
    errorComponent: ({ error }) => <ErrorPanel error={error} />,
    component: lazyRouteComponent(() =>
      sectionScreens().then(({ PrintScreen }) => ({ default: () => <PrintScreen screen={screen} /> })),
    ),
  });

  if (options.isListOnly) return [listRoute] as const;
  return options.isReadOnly
    ? ([listRoute, printRoute] as const)
    : ([listRoute, createScreenRoute, editRoute, printRoute] as const);
}
