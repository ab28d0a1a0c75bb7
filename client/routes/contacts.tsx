import { useRouteContext } from "@tanstack/react-router";
import type { TContactScreeningState } from "../../db/contracts/screening";
import { contactsScreen } from "../features/contacts/contacts-screen";
import { ImportContactsButton } from "../features/contacts/import-contacts";
import { ScreeningSwitch } from "../features/screening/screening-switch";
import { createSectionRoutes } from "./section-routes";

/** /contacts, create-contact, edit-contact/{itemId}, print/{itemId}. */
export const contactRoutes = createSectionRoutes("contacts", "contact", contactsScreen, {
  listActions: () => <ImportContactsButton />,
  // The screening status leads the page: a failed screening is the first thing a person sees.
  formIntro: (contact) => <ContactScreening contactId={contact.id} state={contact.screening_status} />,
});

function ContactScreening({ contactId, state }: { contactId: number; state?: TContactScreeningState }) {
  const { api } = useRouteContext({ from: "__root__" });
  return <ScreeningSwitch api={api} contactId={contactId} initialState={state} />;
}
