-- Shipments join the exact list totals (see 0015 and db/schema/list-versions.ts): every insert,
-- update and delete bumps the table's counter, whichever process writes, so a cached total of
-- My Shipments is reused only while the table is exactly as it was when counted.
INSERT OR IGNORE INTO list_versions (table_name, version) VALUES ('shipments', 0);
--> statement-breakpoint
CREATE TRIGGER shipments_list_version_ins AFTER INSERT ON shipments BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'shipments'; END;
--> statement-breakpoint
CREATE TRIGGER shipments_list_version_upd AFTER UPDATE ON shipments BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'shipments'; END;
--> statement-breakpoint
CREATE TRIGGER shipments_list_version_del AFTER DELETE ON shipments BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'shipments'; END;
