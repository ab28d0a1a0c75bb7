CREATE TABLE `exporter_profiles` (
	`workspace_id` integer PRIMARY KEY NOT NULL,
	`company` text DEFAULT '' NOT NULL,
	`street` text DEFAULT '' NOT NULL,
	`city` text DEFAULT '' NOT NULL,
	`state_province` text DEFAULT '' NOT NULL,
	`postal_code` text DEFAULT '' NOT NULL,
	`country_id` integer,
	`ein` text DEFAULT '' NOT NULL,
	`eori` text DEFAULT '' NOT NULL,
	`other_id_type` text DEFAULT '' NOT NULL,
	`other_id` text DEFAULT '' NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`letterhead` text DEFAULT '' NOT NULL,
	`signatory_name` text DEFAULT '' NOT NULL,
	`signatory_title` text DEFAULT '' NOT NULL,
	`logo_key` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
ALTER TABLE `shipment_items` ADD `unit_of_measure` text DEFAULT 'PCS' NOT NULL;--> statement-breakpoint
ALTER TABLE `shipment_items` ADD `unit_price` integer;--> statement-breakpoint
ALTER TABLE `shipment_items` ADD `origin_country_id` integer REFERENCES countries(id);--> statement-breakpoint
ALTER TABLE `shipments` ADD `discount` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `shipments` ADD `other_charges` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `shipments` ADD `other_charges_label` text DEFAULT '' NOT NULL;