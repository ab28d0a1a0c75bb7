-- Substring filters on the address book served by an index: an FTS5 table with the trigram
-- tokenizer (it folds case beyond ASCII too, so 'müller' finds 'MÜLLER') over company and tax id,
-- kept in step with contacts by triggers. server/lib/entity/entity.service.ts uses it for filters of
-- three characters or more; shorter ones still use LIKE.
CREATE VIRTUAL TABLE contacts_fts USING fts5(company, tax_id, content='contacts', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
INSERT INTO contacts_fts(contacts_fts) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER contacts_fts_ins AFTER INSERT ON contacts BEGIN INSERT INTO contacts_fts(rowid, company, tax_id) VALUES (new.id, new.company, new.tax_id); END;
--> statement-breakpoint
CREATE TRIGGER contacts_fts_del AFTER DELETE ON contacts BEGIN INSERT INTO contacts_fts(contacts_fts, rowid, company, tax_id) VALUES ('delete', old.id, old.company, old.tax_id); END;
--> statement-breakpoint
CREATE TRIGGER contacts_fts_upd AFTER UPDATE OF company, tax_id ON contacts BEGIN INSERT INTO contacts_fts(contacts_fts, rowid, company, tax_id) VALUES ('delete', old.id, old.company, old.tax_id); INSERT INTO contacts_fts(rowid, company, tax_id) VALUES (new.id, new.company, new.tax_id); END;
