CREATE TABLE `screening_list_sets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`lists` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `screening_list_sets_lists_idx` ON `screening_list_sets` (`lists`);--> statement-breakpoint
ALTER TABLE `contact_screening_results` ADD `list_set_id` integer;--> statement-breakpoint
ALTER TABLE `rpscreenings` ADD `list_set_id` integer;--> statement-breakpoint
ALTER TABLE `screening_audit_log` ADD `list_set_id` integer;