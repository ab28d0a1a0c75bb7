import { ClockIcon, HourglassIcon, ShieldAlertIcon, ShieldCheckIcon } from "lucide-react";
import {
  CONTACT_SCREENING_LABELS,
  CONTACT_SCREENING_STATES,
  type TContactScreeningState,
} from "../../../db/contracts/review-dates";
import { Badge } from "../../components/ui/badge";

/** The address book's screening filter choices, in the order a person looks for them. */
export const SCREENING_FILTER_OPTIONS = CONTACT_SCREENING_STATES.map((value) => ({
  value,
  label: CONTACT_SCREENING_LABELS[value],
}));

/**
 * A contact's screening state. Failed is the one solid red badge in the address book (Sensitive is
 * amber, Restricted violet); review due is orange, pending grey with an hourglass: never green until
 * screened for the current name and address.
 */
export function ContactScreeningBadge({ state }: { state: TContactScreeningState | undefined }) {
  switch (state) {
    case "failed":
      return (
        <Badge variant="destructive">
          <ShieldAlertIcon aria-hidden /> Failed
        </Badge>
      );
    case "review_due":
      return (
        <Badge variant="orange">
          <ClockIcon aria-hidden /> Review due
        </Badge>
      );
    case "passed":
      return (
        <Badge variant="green">
          <ShieldCheckIcon aria-hidden /> Passed
        </Badge>
      );
    default:
      return (
        <Badge variant="gray">
          <HourglassIcon aria-hidden /> Pending
        </Badge>
      );
  }
}
