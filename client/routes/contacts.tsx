import { useRouteContext } from "@tanstack/react-router";
import type { TContact } from "../../db/contracts/contacts";
import type { TContactScreeningState } from "../../db/contracts/screening";
import { contactsScreen } from "../features/contacts/contacts-screen";
import { ImportContactsButton } from "../features/contacts/import-contacts";
import type { ScreeningSwitch } from "../features/screening/screening-switch";
import { createSectionRoutes } from "./section-routes";

/** /contacts, create-contact, edit-contact/{itemId}, print/{itemId}. */
export const contactRoutes = createSectionRoutes("contacts", "contact", contactsScreen, {
  listActions: () => <ImportContactsButton />,
  // The screening status leads the page: a failed screening is the first thing a person sees. The
  // card's code loads with the edit page, not with the address book.
  loadFormIntro: () =>
    import("../features/screening/screening-switch").then(
      ({ ScreeningSwitch }) =>
        (contact: TContact & { screening_status?: TContactScreeningState }) => (
          <ContactScreening
            contactId={contact.id}
            state={contact.screening_status}
            Switch={ScreeningSwitch}
          />
        ),
    ),
});

function ContactScreening({
  contactId,
  state,
  Switch,
}: {
  contactId: number;
  state?: TContactScreeningState;
  Switch: typeof ScreeningSwitch;
}) {
  const { api } = useRouteContext({ from: "__root__" });
  return <Switch api={api} contactId={contactId} initialState={state} />;
}
