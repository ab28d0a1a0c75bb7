import { Link, useRouter } from "@tanstack/react-router";
import { ApiError } from "../../lib/api";
import { Button } from "../ui/button";

/** The cause line under a load error's title (spec section 8). */
function causeOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return "No response received";
    if (error.body === null) return "No response data received";
    return `Service returned ${error.status}`;
  }
  return "No data received";
}

/** A table or record that failed to load: the message as title, the cause, Home and Retry. */
export function ErrorPanel({ error }: { error: unknown }) {
  const router = useRouter();
  const title = error instanceof Error && error.message ? error.message : "An error occured!";
  return (
    <div role="alert" className="rounded-lg border border-destructive/30 bg-destructive/5 p-8 text-center">
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="mt-1 text-sm text-muted-foreground">{causeOf(error)}</p>
      <div className="mt-4 flex justify-center gap-2">
        <Button asChild variant="outline">
          <Link to="/home">Home</Link>
        </Button>
        <Button onClick={() => void router.invalidate()}>Retry</Button>
      </div>
    </div>
  );
}
