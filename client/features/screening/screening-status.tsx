// The screening outcome badges the screenings list, a contact's history, the search and the
// contact form's screening panel all show.
import { isReviewDue } from "../../../db/contracts/review-dates";
import { Badge } from "../../components/ui/badge";
import { formatDate } from "../../lib/format";

/** PASSED / FAILED in the status colours; PENDING (not screened yet) is never shown as a pass. */
export function ScreeningStatus({ status }: { status: string }) {
  const variant = status === "failed" ? "red" : status === "passed" ? "green" : "yellow";
  return <Badge variant={variant}>{status.toUpperCase()}</Badge>;
}

/** 'Review due' (still passed, flagged) or the day the whitelisting is to be reviewed. */
export function ReviewBadge({ reviewDate }: { reviewDate: string | null | undefined }) {
  if (!reviewDate) return null;
  return isReviewDue(reviewDate) ? (
    <Badge variant="orange">Review due</Badge>
  ) : (
    <span className="text-sm text-muted-foreground">Review on {formatDate(reviewDate)}</span>
  );
}
