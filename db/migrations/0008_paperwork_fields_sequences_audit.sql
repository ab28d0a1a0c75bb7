CREATE TABLE `paperwork_audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`shipment_id` integer NOT NULL,
	`user_id` integer,
	`user_email` text,
	`documents` text NOT NULL,
	`warnings` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `paperwork_audit_log_ws_idx` ON `paperwork_audit_log` (`workspace_id`,`shipment_id`,`id`);--> statement-breakpoint
CREATE TABLE `paperwork_sequences` (
	`workspace_id` integer NOT NULL,
	`series` text NOT NULL,
	`year` integer NOT NULL,
	`last_number` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`workspace_id`, `series`, `year`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "paperwork_sequences_series_check" CHECK("paperwork_sequences"."series" in ('invoice', 'proforma'))
);
--> statement-breakpoint
ALTER TABLE `workspaces` ADD `paper_size` text DEFAULT 'letter' NOT NULL;--> statement-breakpoint
ALTER TABLE `shipments` ADD `aes_citation` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `shipments` ADD `proforma_valid_until` text;--> statement-breakpoint
ALTER TABLE `shipments` ADD `invoice_number` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `shipments` ADD `proforma_number` text DEFAULT '' NOT NULL;