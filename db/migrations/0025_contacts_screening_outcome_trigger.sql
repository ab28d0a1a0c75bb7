-- Each contact carries its newest screening result's status and review date (see db/schema/contacts.ts):
-- every new result (a screening, a re-screening or a person's override; results are never edited)
-- copies them onto its contact in the same statement, whichever process writes. That UPDATE also
-- bumps the contacts list counter (0015), so cached contact totals filtered on the screening state
-- are counted again; the separate bump of 0020 is no longer needed.
DROP TRIGGER IF EXISTS contact_screening_results_contacts_version;
--> statement-breakpoint
CREATE TRIGGER contact_screening_results_to_contact AFTER INSERT ON contact_screening_results BEGIN UPDATE contacts SET screening_outcome = NEW.status, screening_review_date = NEW.review_date WHERE id = NEW.contact_id; END;
--> statement-breakpoint
UPDATE contacts SET (screening_outcome, screening_review_date) = (
  SELECT r.status, r.review_date FROM contact_screening_results r
  WHERE r.contact_id = contacts.id ORDER BY r.id DESC LIMIT 1
)
WHERE EXISTS (SELECT 1 FROM contact_screening_results r WHERE r.contact_id = contacts.id);
