import { contactsScreen } from "../features/contacts/contacts-screen";
import { ImportContactsButton } from "../features/contacts/import-contacts";
import { createSectionRoutes } from "./section-routes";

/** /contacts, create-contact, edit-contact/{itemId}, print/{itemId}. */
export const contactRoutes = createSectionRoutes("contacts", "contact", contactsScreen, {
  listActions: () => <ImportContactsButton />,
});
