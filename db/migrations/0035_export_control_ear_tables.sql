CREATE TABLE `ear_chart_footnotes` (
	`edition_id` integer NOT NULL,
	`footnote` text NOT NULL,
	`text` text NOT NULL,
	PRIMARY KEY(`edition_id`, `footnote`),
	FOREIGN KEY (`edition_id`) REFERENCES `ear_editions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `ear_country_chart` (
	`edition_id` integer NOT NULL,
	`iso2` text NOT NULL,
	`country` text NOT NULL,
	`columns` text NOT NULL,
	`footnotes` text NOT NULL,
	`notes` text NOT NULL,
	PRIMARY KEY(`edition_id`, `iso2`),
	FOREIGN KEY (`edition_id`) REFERENCES `ear_editions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `ear_country_groups` (
	`edition_id` integer NOT NULL,
	`iso2` text NOT NULL,
	`country` text NOT NULL,
	`groups` text NOT NULL,
	`notes` text NOT NULL,
	PRIMARY KEY(`edition_id`, `iso2`),
	FOREIGN KEY (`edition_id`) REFERENCES `ear_editions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `ear_eccns` (
	`edition_id` integer NOT NULL,
	`eccn` text NOT NULL,
	`heading_short` text NOT NULL,
	`reason_for_control` text NOT NULL,
	`chart_columns` text NOT NULL,
	`non_chart_requirements` text NOT NULL,
	`partial_scope_columns` text NOT NULL,
	`lvs` text NOT NULL,
	`lvs_value` text NOT NULL,
	`gbs` text NOT NULL,
	`gbs_available` text NOT NULL,
	`other_list_based_exceptions` text NOT NULL,
	`license_requirements_raw` text NOT NULL,
	`notes` text NOT NULL,
	PRIMARY KEY(`edition_id`, `eccn`),
	FOREIGN KEY (`edition_id`) REFERENCES `ear_editions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `ear_editions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer,
	`edition_date` text NOT NULL,
	`source` text DEFAULT '' NOT NULL,
	`loaded_by_user_id` integer,
	`loaded_by_email` text DEFAULT '' NOT NULL,
	`counts` text NOT NULL,
	`loaded_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ear_editions_ws_idx` ON `ear_editions` (`workspace_id`,`edition_date`);--> statement-breakpoint
CREATE TABLE `export_control_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`shipment_id` integer NOT NULL,
	`item_id` integer,
	`user_id` integer,
	`user_email` text DEFAULT '' NOT NULL,
	`action` text NOT NULL,
	`product_number` text DEFAULT '' NOT NULL,
	`eccn` text DEFAULT '' NOT NULL,
	`destination` text DEFAULT '' NOT NULL,
	`determination` text DEFAULT '' NOT NULL,
	`justification` text DEFAULT '' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `export_control_audit_ws_idx` ON `export_control_audit` (`workspace_id`,`shipment_id`,`id`);--> statement-breakpoint
ALTER TABLE `licenses` ADD `eccn` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `licenses` ADD `authorized_value` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `licenses` ADD `authorized_quantity` integer;--> statement-breakpoint
ALTER TABLE `shipment_items` ADD `schedule_b` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `shipment_items` ADD `license_exception` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `shipment_items` ADD `license_exception_note` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `shipment_items` ADD `license_id` integer;--> statement-breakpoint
ALTER TABLE `shipment_items` ADD `override_justification` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `shipment_items_license_idx` ON `shipment_items` (`license_id`);--> statement-breakpoint
ALTER TABLE `shipments` ADD `usd_exchange_rate` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `shipments` ADD `usd_exchange_rate_date` text;--> statement-breakpoint
ALTER TABLE `shipments` ADD `ultimate_consignee_type` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `shipments` ADD `related_party` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `shipments` ADD `routed_transaction` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `shipments` ADD `hazardous_materials` text DEFAULT '' NOT NULL;