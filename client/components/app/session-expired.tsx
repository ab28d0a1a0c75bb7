import { Link, useRouterState } from "@tanstack/react-router";
import { clearSessionExpired } from "../../lib/session";
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "../ui/alert-dialog";
import { Button } from "../ui/button";

// Loaded by the root route when a 401 ends the session (client/routes/root.tsx).

/** Spec: a 401 logs the user out and offers a Log in button. */
export function SessionExpiredDialog() {
  const pathname = useRouterState({ select: (s) => s.location.href });
  return (
    <AlertDialog open>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Authentication failed</AlertDialogTitle>
          <AlertDialogDescription>Please log in to continue</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <Button asChild onClick={clearSessionExpired}>
            <Link to="/auth/login" search={{ next: pathname }}>
              Log in
            </Link>
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
