-- Change counters for the list tables (see db/schema/list-versions.ts): every insert, update and
-- delete bumps its table's counter, whichever process writes, so cached list totals stay exact.
INSERT OR IGNORE INTO list_versions (table_name, version) VALUES ('contacts', 0), ('products', 0), ('licenses', 0), ('wikis', 0), ('msdocuments', 0), ('rpscreenings', 0);
--> statement-breakpoint
CREATE TRIGGER contacts_list_version_ins AFTER INSERT ON contacts BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'contacts'; END;
--> statement-breakpoint
CREATE TRIGGER contacts_list_version_upd AFTER UPDATE ON contacts BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'contacts'; END;
--> statement-breakpoint
CREATE TRIGGER contacts_list_version_del AFTER DELETE ON contacts BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'contacts'; END;
--> statement-breakpoint
CREATE TRIGGER products_list_version_ins AFTER INSERT ON products BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'products'; END;
--> statement-breakpoint
CREATE TRIGGER products_list_version_upd AFTER UPDATE ON products BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'products'; END;
--> statement-breakpoint
CREATE TRIGGER products_list_version_del AFTER DELETE ON products BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'products'; END;
--> statement-breakpoint
CREATE TRIGGER licenses_list_version_ins AFTER INSERT ON licenses BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'licenses'; END;
--> statement-breakpoint
CREATE TRIGGER licenses_list_version_upd AFTER UPDATE ON licenses BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'licenses'; END;
--> statement-breakpoint
CREATE TRIGGER licenses_list_version_del AFTER DELETE ON licenses BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'licenses'; END;
--> statement-breakpoint
CREATE TRIGGER wikis_list_version_ins AFTER INSERT ON wikis BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'wikis'; END;
--> statement-breakpoint
CREATE TRIGGER wikis_list_version_upd AFTER UPDATE ON wikis BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'wikis'; END;
--> statement-breakpoint
CREATE TRIGGER wikis_list_version_del AFTER DELETE ON wikis BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'wikis'; END;
--> statement-breakpoint
CREATE TRIGGER msdocuments_list_version_ins AFTER INSERT ON msdocuments BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'msdocuments'; END;
--> statement-breakpoint
CREATE TRIGGER msdocuments_list_version_upd AFTER UPDATE ON msdocuments BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'msdocuments'; END;
--> statement-breakpoint
CREATE TRIGGER msdocuments_list_version_del AFTER DELETE ON msdocuments BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'msdocuments'; END;
--> statement-breakpoint
CREATE TRIGGER rpscreenings_list_version_ins AFTER INSERT ON rpscreenings BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'rpscreenings'; END;
--> statement-breakpoint
CREATE TRIGGER rpscreenings_list_version_upd AFTER UPDATE ON rpscreenings BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'rpscreenings'; END;
--> statement-breakpoint
CREATE TRIGGER rpscreenings_list_version_del AFTER DELETE ON rpscreenings BEGIN UPDATE list_versions SET version = version + 1 WHERE table_name = 'rpscreenings'; END;
