import { useRouterState } from "@tanstack/react-router";
import { useState } from "react";
import { Switch } from "../ui/switch";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../ui/tabs";

export { DEBUG_STORAGE_KEY, isDebugOn } from "./debug-flag";

/** Developer panel with Debug, Store and Location tabs and a Verbose toggle. */
export function DebugPanel() {
  const [isVerbose, setIsVerbose] = useState(false);
  const state = useRouterState();
  const location = state.location;
  const matches = state.matches.map((m) => ({
    routeId: m.routeId,
    status: m.status,
    ...(isVerbose ? { params: m.params, loaderData: m.loaderData } : {}),
  }));
  return (
    <section
      data-print-hide
      aria-label="Debug panel"
      className="fixed right-4 bottom-4 z-50 w-[28rem] max-w-[calc(100vw-2rem)] rounded-lg border bg-card p-3 text-xs shadow-lg"
    >
      <Tabs defaultValue="debug">
        <div className="flex items-center justify-between gap-2">
          <TabsList>
            <TabsTrigger value="debug">Debug</TabsTrigger>
            <TabsTrigger value="store">Store</TabsTrigger>
            <TabsTrigger value="location">Location</TabsTrigger>
          </TabsList>
          <div className="flex items-center gap-2">
            <Switch id="debug-verbose" checked={isVerbose} onCheckedChange={setIsVerbose} />
            <label htmlFor="debug-verbose">Verbose</label>
          </div>
        </div>
        <TabsContent value="debug">
          <pre className="max-h-64 overflow-auto">
            {JSON.stringify({ status: state.status, isLoading: state.isLoading, matches }, null, 2)}
          </pre>
        </TabsContent>
        <TabsContent value="store">
          <pre className="max-h-64 overflow-auto">
            {JSON.stringify(
              state.matches.map((m) => ({ routeId: m.routeId, loaderData: m.loaderData })),
              null,
              2,
            )}
          </pre>
        </TabsContent>
        <TabsContent value="location">
          <pre className="max-h-64 overflow-auto">
            {JSON.stringify(
              isVerbose ? location : { pathname: location.pathname, search: location.search },
              null,
              2,
            )}
          </pre>
        </TabsContent>
      </Tabs>
    </section>
  );
}
