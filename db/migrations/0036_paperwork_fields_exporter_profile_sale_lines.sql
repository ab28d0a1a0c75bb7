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
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`product_id` integer,
	`license_id` integer,
	`wiki_id` integer,
	`msdocument_id` integer,
	`shipment_id` integer,
	`document_type` text,
	`original_name` text NOT NULL,
	`extension` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`storage_key` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`wiki_id`) REFERENCES `wikis`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`msdocument_id`) REFERENCES `msdocuments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "documents_one_owner_check" CHECK(("__new_documents"."product_id" is not null) + ("__new_documents"."license_id" is not null) + ("__new_documents"."wiki_id" is not null) + ("__new_documents"."msdocument_id" is not null) + ("__new_documents"."shipment_id" is not null) = 1),
	CONSTRAINT "documents_type_check" CHECK("__new_documents"."document_type" is null or "__new_documents"."document_type" in ('commercial_invoice', 'proforma_invoice', 'packing_list', 'certificate_of_origin', 'custom'))
);
--> statement-breakpoint
INSERT INTO `__new_documents`("id", "workspace_id", "product_id", "license_id", "wiki_id", "msdocument_id", "shipment_id", "document_type", "original_name", "extension", "content_type", "size", "storage_key", "created_at") SELECT "id", "workspace_id", "product_id", "license_id", "wiki_id", "msdocument_id", "shipment_id", "document_type", "original_name", "extension", "content_type", "size", "storage_key", "created_at" FROM `documents`;--> statement-breakpoint
DROP TABLE `documents`;--> statement-breakpoint
ALTER TABLE `__new_documents` RENAME TO `documents`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `documents_storage_key_unique` ON `documents` (`storage_key`);--> statement-breakpoint
CREATE INDEX `documents_product_idx` ON `documents` (`product_id`);--> statement-breakpoint
CREATE INDEX `documents_license_idx` ON `documents` (`license_id`);--> statement-breakpoint
CREATE INDEX `documents_wiki_idx` ON `documents` (`wiki_id`);--> statement-breakpoint
CREATE INDEX `documents_msdocument_idx` ON `documents` (`msdocument_id`);--> statement-breakpoint
CREATE INDEX `documents_shipment_idx` ON `documents` (`shipment_id`);--> statement-breakpoint
CREATE INDEX `documents_workspace_idx` ON `documents` (`workspace_id`);--> statement-breakpoint
ALTER TABLE `contacts` ADD `tax_id_type` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `contacts` ADD `other_id_type` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `contacts` ADD `other_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `shipment_items` ADD `unit_of_measure` text DEFAULT 'PCS' NOT NULL;--> statement-breakpoint
ALTER TABLE `shipment_items` ADD `unit_price` integer;--> statement-breakpoint
ALTER TABLE `shipment_items` ADD `origin_country_id` integer REFERENCES countries(id);--> statement-breakpoint
ALTER TABLE `shipments` ADD `notify_party_id` integer REFERENCES contacts(id);--> statement-breakpoint
ALTER TABLE `shipments` ADD `discount` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `shipments` ADD `other_charges` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `shipments` ADD `other_charges_label` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `shipments` ADD `invoice_date` text;--> statement-breakpoint
ALTER TABLE `shipments` ADD `reason_for_export` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `shipments` ADD `incoterm_place` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `shipments` ADD `marks_and_numbers` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `shipments_notify_party_idx` ON `shipments` (`notify_party_id`);