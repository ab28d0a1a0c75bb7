-- The screenings list shows, sorts and filters a screening as 'pending' while its contact's screening
-- is pending (contacts.screening_pending), so its cached totals depend on that flag too: every change
-- of the flag, and every delete of a contact (its screenings then show their stored outcome again),
-- bumps the rpscreenings list counter, whichever process writes.
CREATE TRIGGER contacts_pending_rpscreenings_version_upd AFTER UPDATE OF screening_pending ON contacts WHEN old.screening_pending IS NOT new.screening_pending BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'rpscreenings'; END;
--> statement-breakpoint
CREATE TRIGGER contacts_pending_rpscreenings_version_del AFTER DELETE ON contacts BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'rpscreenings'; END;
