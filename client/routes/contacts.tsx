import { useRouteContext } from "@tanstack/react-router";
import type { TContact } from "../../db/contracts/contacts";
import { contactsScreen } from "../features/contacts/contacts-screen";
import { ImportContactsButton } from "../features/contacts/import-contacts";
import type { ScreeningSwitch } from "../features/screening/screening-switch";
import { createSectionRoutes } from "./section-routes";

/** /contacts, create-contact, edit-contact/{itemId}, print/{itemId}. */
export const contactRoutes = createSectionRoutes("contacts", "contact", contactsScreen, {
  listActions: () => <ImportContactsButton />,
  // The contact's screening card loads with the edit page, not with the address book.
  loadFormExtras: () =>
    import("../features/screening/screening-switch").then(({ ScreeningSwitch }) => (contact: TContact) => (
      <ContactScreening contactId={contact.id} Switch={ScreeningSwitch} />
    )),
});

function ContactScreening({ contactId, Switch }: { contactId: number; Switch: typeof ScreeningSwitch }) {
  const { api } = useRouteContext({ from: "__root__" });
  return <Switch api={api} contactId={contactId} />;
}
