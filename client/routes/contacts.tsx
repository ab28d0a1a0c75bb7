import { useRouteContext } from "@tanstack/react-router";
import { contactsScreen } from "../features/contacts/contacts-screen";
import { ImportContactsButton } from "../features/contacts/import-contacts";
import { ScreeningSwitch } from "../features/screening/screening-switch";
import { createSectionRoutes } from "./section-routes";

/** /contacts, create-contact, edit-contact/{itemId}, print/{itemId}. */
export const contactRoutes = createSectionRoutes("contacts", "contact", contactsScreen, {
  listActions: () => <ImportContactsButton />,
  formExtras: (contact) => <ContactScreening contactId={contact.id} />,
});

function ContactScreening({ contactId }: { contactId: number }) {
  const { api } = useRouteContext({ from: "__root__" });
  return <ScreeningSwitch api={api} contactId={contactId} />;
}
