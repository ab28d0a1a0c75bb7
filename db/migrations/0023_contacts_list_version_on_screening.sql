-- The address book filters on each contact's screening state (filters[screening]), which comes from
-- its newest contact_screening_results row. A new result (a screening or a person's override) can
-- change that state without touching the contacts row, so it bumps the contacts counter too: cached
-- contact list totals are then counted again (see 0015 and docs/decisions/006).
CREATE TRIGGER contact_screening_results_contacts_version AFTER INSERT ON contact_screening_results BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'contacts'; END;
