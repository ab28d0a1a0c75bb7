-- rpscreenings.attention (see db/schema/screening.ts): 2 = failed and nobody has decided yet (the
-- contact's newest result is the system's, not an override), 1 = changed by a list update, 0 = the
-- rest. Set in the statement that writes the row, whichever path or process writes it; a screening
-- stores its contact_screening_results row before its rpscreenings row, and an override its new
-- result before it updates the status, so the newest result is the one this row shows.
-- Recursive triggers are off and attention is not a watched column, so each runs once.
CREATE TRIGGER rpscreenings_attention_ins AFTER INSERT ON rpscreenings BEGIN UPDATE rpscreenings SET attention = CASE WHEN NEW.status = 'failed' AND coalesce((SELECT r.override_of_id IS NULL FROM contact_screening_results r WHERE r.contact_id = NEW.contact_id ORDER BY r.id DESC LIMIT 1), 1) THEN 2 WHEN NEW.is_changed THEN 1 ELSE 0 END WHERE id = NEW.id; END;
--> statement-breakpoint
CREATE TRIGGER rpscreenings_attention_upd AFTER UPDATE OF status, is_changed, contact_id ON rpscreenings BEGIN UPDATE rpscreenings SET attention = CASE WHEN NEW.status = 'failed' AND coalesce((SELECT r.override_of_id IS NULL FROM contact_screening_results r WHERE r.contact_id = NEW.contact_id ORDER BY r.id DESC LIMIT 1), 1) THEN 2 WHEN NEW.is_changed THEN 1 ELSE 0 END WHERE id = NEW.id; END;
--> statement-breakpoint
UPDATE rpscreenings SET attention = CASE WHEN status = 'failed' AND coalesce((SELECT r.override_of_id IS NULL FROM contact_screening_results r WHERE r.contact_id = rpscreenings.contact_id ORDER BY r.id DESC LIMIT 1), 1) THEN 2 WHEN is_changed THEN 1 ELSE 0 END;
