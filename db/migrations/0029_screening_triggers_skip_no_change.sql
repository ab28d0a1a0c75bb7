-- The triggers of 0025 and 0027 wrote their row again even when nothing changed: every screening
-- recorded an attention value equal to the one the row already held (0 for a passed contact), and
-- every re-screen copied the same outcome onto its contact, each write firing the list-version and
-- home-version triggers behind it. That was most of the cost of recording a big import's screenings.
-- Same values as before; the writes that would change nothing are skipped (a WHEN clause).
DROP TRIGGER IF EXISTS rpscreenings_attention_ins;
--> statement-breakpoint
DROP TRIGGER IF EXISTS rpscreenings_attention_upd;
--> statement-breakpoint
DROP TRIGGER IF EXISTS contact_screening_results_to_contact;
--> statement-breakpoint
CREATE TRIGGER rpscreenings_attention_ins AFTER INSERT ON rpscreenings WHEN NEW.attention IS NOT (CASE WHEN NEW.status = 'failed' AND coalesce((SELECT r.override_of_id IS NULL FROM contact_screening_results r WHERE r.contact_id = NEW.contact_id ORDER BY r.id DESC LIMIT 1), 1) THEN 2 WHEN NEW.is_changed THEN 1 ELSE 0 END) BEGIN UPDATE rpscreenings SET attention = CASE WHEN NEW.status = 'failed' AND coalesce((SELECT r.override_of_id IS NULL FROM contact_screening_results r WHERE r.contact_id = NEW.contact_id ORDER BY r.id DESC LIMIT 1), 1) THEN 2 WHEN NEW.is_changed THEN 1 ELSE 0 END WHERE id = NEW.id; END;
--> statement-breakpoint
CREATE TRIGGER rpscreenings_attention_upd AFTER UPDATE OF status, is_changed, contact_id ON rpscreenings WHEN NEW.attention IS NOT (CASE WHEN NEW.status = 'failed' AND coalesce((SELECT r.override_of_id IS NULL FROM contact_screening_results r WHERE r.contact_id = NEW.contact_id ORDER BY r.id DESC LIMIT 1), 1) THEN 2 WHEN NEW.is_changed THEN 1 ELSE 0 END) BEGIN UPDATE rpscreenings SET attention = CASE WHEN NEW.status = 'failed' AND coalesce((SELECT r.override_of_id IS NULL FROM contact_screening_results r WHERE r.contact_id = NEW.contact_id ORDER BY r.id DESC LIMIT 1), 1) THEN 2 WHEN NEW.is_changed THEN 1 ELSE 0 END WHERE id = NEW.id; END;
--> statement-breakpoint
CREATE TRIGGER contact_screening_results_to_contact AFTER INSERT ON contact_screening_results WHEN EXISTS (SELECT 1 FROM contacts c WHERE c.id = NEW.contact_id AND (c.screening_outcome IS NOT NEW.status OR c.screening_review_date IS NOT NEW.review_date)) BEGIN UPDATE contacts SET screening_outcome = NEW.status, screening_review_date = NEW.review_date WHERE id = NEW.contact_id; END;
