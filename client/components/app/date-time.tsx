import { useSyncExternalStore } from "react";
import { formatDateTime } from "../../lib/format";

const never = () => () => {};

/** False while the server renders and while the page hydrates, true from then on. */
export function useIsHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}

/**
 * A moment in the reader's own time zone. The server cannot know that zone, so the page is rendered
 * in UTC (and says so) and switches to local time once hydrated: no hydration mismatch.
 */
export function DateTime({ value }: { value: string | null | undefined }) {
  const isHydrated = useIsHydrated();
  if (!value) return null;
  return <time dateTime={value}>{formatDateTime(value, isHydrated ? undefined : "UTC")}</time>;
}
