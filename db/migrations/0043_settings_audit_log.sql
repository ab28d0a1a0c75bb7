CREATE TABLE `settings_audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`user_id` integer,
	`user_email` text,
	`setting` text NOT NULL,
	`previous_value` text,
	`value` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `settings_audit_log_ws_idx` ON `settings_audit_log` (`workspace_id`,`id`);