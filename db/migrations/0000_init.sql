CREATE TABLE `rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rate_limits_window_idx` ON `rate_limits` (`window_start`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`remember_me` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `used_signatures` (
	`signature_hash` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL,
	`expires_at` integer NOT NULL,
	CONSTRAINT "used_signatures_purpose_check" CHECK("used_signatures"."purpose" in ('reset', 'verify'))
);
--> statement-breakpoint
CREATE INDEX `used_signatures_expires_idx` ON `used_signatures` (`expires_at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`title` text NOT NULL,
	`name` text NOT NULL,
	`surname` text NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`image_key` text,
	`signature_key` text,
	`email_verified_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_workspace_idx` ON `users` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `workspaces` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `licenses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`licence_name` text NOT NULL,
	`valid_date` text NOT NULL,
	`expiration_date` text NOT NULL,
	`reference_number_1` text NOT NULL,
	`reference_number_2` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`country_id` integer NOT NULL,
	`contact_id` integer,
	`contact_note` text DEFAULT '' NOT NULL,
	`product_id` integer,
	`product_note` text DEFAULT '' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `licenses_ws_name_idx` ON `licenses` (`workspace_id`,`licence_name`);--> statement-breakpoint
CREATE INDEX `licenses_ws_valid_idx` ON `licenses` (`workspace_id`,`valid_date`);--> statement-breakpoint
CREATE INDEX `licenses_ws_expiration_idx` ON `licenses` (`workspace_id`,`expiration_date`);--> statement-breakpoint
CREATE INDEX `licenses_ws_status_idx` ON `licenses` (`workspace_id`,`status`);--> statement-breakpoint
CREATE INDEX `licenses_ws_ref1_idx` ON `licenses` (`workspace_id`,`reference_number_1`);--> statement-breakpoint
CREATE INDEX `licenses_ws_ref2_idx` ON `licenses` (`workspace_id`,`reference_number_2`);--> statement-breakpoint
CREATE INDEX `licenses_ws_country_idx` ON `licenses` (`workspace_id`,`country_id`);--> statement-breakpoint
CREATE INDEX `licenses_ws_updated_idx` ON `licenses` (`workspace_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `licenses_contact_idx` ON `licenses` (`contact_id`);--> statement-breakpoint
CREATE INDEX `licenses_product_idx` ON `licenses` (`product_id`);--> statement-breakpoint
CREATE INDEX `licenses_country_idx` ON `licenses` (`country_id`);--> statement-breakpoint
CREATE TABLE `msdocuments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`document_type` text DEFAULT 'other' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `msdocuments_ws_name_idx` ON `msdocuments` (`workspace_id`,`name`);--> statement-breakpoint
CREATE INDEX `msdocuments_ws_created_idx` ON `msdocuments` (`workspace_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `msdocuments_ws_type_idx` ON `msdocuments` (`workspace_id`,`document_type`);--> statement-breakpoint
CREATE TABLE `products` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`product_number` text NOT NULL,
	`country_of_origin_id` integer NOT NULL,
	`is_sensitive` integer DEFAULT false NOT NULL,
	`sensitive_message` text DEFAULT '' NOT NULL,
	`has_license` integer DEFAULT false NOT NULL,
	`us_eccn` text NOT NULL,
	`hts` text NOT NULL,
	`unit_value` integer NOT NULL,
	`net_weight` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`country_of_origin_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `products_ws_number_idx` ON `products` (`workspace_id`,`product_number`);--> statement-breakpoint
CREATE INDEX `products_ws_description_idx` ON `products` (`workspace_id`,`description`);--> statement-breakpoint
CREATE INDEX `products_ws_eccn_idx` ON `products` (`workspace_id`,`us_eccn`);--> statement-breakpoint
CREATE INDEX `products_ws_hts_idx` ON `products` (`workspace_id`,`hts`);--> statement-breakpoint
CREATE INDEX `products_ws_origin_idx` ON `products` (`workspace_id`,`country_of_origin_id`);--> statement-breakpoint
CREATE INDEX `products_ws_net_weight_idx` ON `products` (`workspace_id`,`net_weight`);--> statement-breakpoint
CREATE INDEX `products_ws_unit_value_idx` ON `products` (`workspace_id`,`unit_value`);--> statement-breakpoint
CREATE INDEX `products_ws_license_idx` ON `products` (`workspace_id`,`has_license`);--> statement-breakpoint
CREATE INDEX `products_ws_updated_idx` ON `products` (`workspace_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `products_origin_idx` ON `products` (`country_of_origin_id`);--> statement-breakpoint
CREATE TABLE `wikis` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `wikis_ws_name_idx` ON `wikis` (`workspace_id`,`name`);--> statement-breakpoint
CREATE INDEX `wikis_ws_description_idx` ON `wikis` (`workspace_id`,`description`);--> statement-breakpoint
CREATE INDEX `wikis_ws_updated_idx` ON `wikis` (`workspace_id`,`updated_at`);--> statement-breakpoint
CREATE TABLE `contacts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`user_id` integer,
	`company` text NOT NULL,
	`is_sensitive` integer DEFAULT false NOT NULL,
	`sensitive_note` text DEFAULT '-' NOT NULL,
	`partner_type_id` integer NOT NULL,
	`is_restricted` integer DEFAULT false NOT NULL,
	`restricted_note` text DEFAULT '-' NOT NULL,
	`tax_id` text NOT NULL,
	`street` text DEFAULT '' NOT NULL,
	`city` text DEFAULT '' NOT NULL,
	`state_province` text DEFAULT '' NOT NULL,
	`postal_code` text DEFAULT '' NOT NULL,
	`country_id` integer,
	`contact_1` text NOT NULL,
	`phone_1` text NOT NULL,
	`email_1` text NOT NULL,
	`contact_2` text DEFAULT '' NOT NULL,
	`phone_2` text DEFAULT '' NOT NULL,
	`email_2` text DEFAULT '' NOT NULL,
	`last_shipment_date` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`partner_type_id`) REFERENCES `partner_types`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `contacts_ws_company_idx` ON `contacts` (`workspace_id`,`company`);--> statement-breakpoint
CREATE INDEX `contacts_ws_partner_type_idx` ON `contacts` (`workspace_id`,`partner_type_id`);--> statement-breakpoint
CREATE INDEX `contacts_ws_last_shipment_idx` ON `contacts` (`workspace_id`,`last_shipment_date`);--> statement-breakpoint
CREATE INDEX `contacts_ws_sensitive_idx` ON `contacts` (`workspace_id`,`is_sensitive`);--> statement-breakpoint
CREATE INDEX `contacts_ws_restricted_idx` ON `contacts` (`workspace_id`,`is_restricted`);--> statement-breakpoint
CREATE INDEX `contacts_ws_tax_id_idx` ON `contacts` (`workspace_id`,`tax_id`);--> statement-breakpoint
CREATE INDEX `contacts_ws_updated_idx` ON `contacts` (`workspace_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `contacts_partner_type_idx` ON `contacts` (`partner_type_id`);--> statement-breakpoint
CREATE INDEX `contacts_country_idx` ON `contacts` (`country_id`);--> statement-breakpoint
CREATE INDEX `contacts_user_idx` ON `contacts` (`user_id`);--> statement-breakpoint
CREATE TABLE `documents` (
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
	CONSTRAINT "documents_one_owner_check" CHECK(("documents"."product_id" is not null) + ("documents"."license_id" is not null) + ("documents"."wiki_id" is not null) + ("documents"."msdocument_id" is not null) + ("documents"."shipment_id" is not null) = 1),
	CONSTRAINT "documents_type_check" CHECK("documents"."document_type" is null or "documents"."document_type" in ('commercial_invoice', 'proforma_invoice', 'packing_list', 'custom'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `documents_storage_key_unique` ON `documents` (`storage_key`);--> statement-breakpoint
CREATE INDEX `documents_product_idx` ON `documents` (`product_id`);--> statement-breakpoint
CREATE INDEX `documents_license_idx` ON `documents` (`license_id`);--> statement-breakpoint
CREATE INDEX `documents_wiki_idx` ON `documents` (`wiki_id`);--> statement-breakpoint
CREATE INDEX `documents_msdocument_idx` ON `documents` (`msdocument_id`);--> statement-breakpoint
CREATE INDEX `documents_shipment_idx` ON `documents` (`shipment_id`);--> statement-breakpoint
CREATE INDEX `documents_workspace_idx` ON `documents` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `carriers` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`code` text
);
--> statement-breakpoint
CREATE TABLE `countries` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`code_iso_2` text NOT NULL,
	`lat` real NOT NULL,
	`lng` real NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `countries_code_unique` ON `countries` (`code_iso_2`);--> statement-breakpoint
CREATE INDEX `countries_name_idx` ON `countries` (`name`);--> statement-breakpoint
CREATE TABLE `currencies` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`currency` text NOT NULL,
	`sort_order` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `currencies_code_unique` ON `currencies` (`code`);--> statement-breakpoint
CREATE INDEX `currencies_sort_idx` ON `currencies` (`sort_order`);--> statement-breakpoint
CREATE TABLE `incoterms` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `incoterms_code_unique` ON `incoterms` (`code`);--> statement-breakpoint
CREATE TABLE `modes_of_transport` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `packages` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `partner_types` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`partner_type` text NOT NULL,
	`workspace_id` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `partner_types_workspace_idx` ON `partner_types` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `payment_terms` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `shipping_statuses` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`label` text NOT NULL,
	`color` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shipping_statuses_name_unique` ON `shipping_statuses` (`name`);--> statement-breakpoint
CREATE TABLE `contact_screening_results` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`contact_id` integer NOT NULL,
	`status` text NOT NULL,
	`multiple` integer DEFAULT false NOT NULL,
	`name` text NOT NULL,
	`address` text DEFAULT '' NOT NULL,
	`best_score` real DEFAULT 0 NOT NULL,
	`matches` text NOT NULL,
	`lists` text NOT NULL,
	`override_of_id` integer,
	`note` text,
	`user_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "contact_screening_results_status_check" CHECK("contact_screening_results"."status" in ('passed', 'failed'))
);
--> statement-breakpoint
CREATE INDEX `contact_screening_results_contact_idx` ON `contact_screening_results` (`contact_id`,`id`);--> statement-breakpoint
CREATE INDEX `contact_screening_results_ws_idx` ON `contact_screening_results` (`workspace_id`);--> statement-breakpoint
CREATE INDEX `contact_screening_results_user_idx` ON `contact_screening_results` (`user_id`);--> statement-breakpoint
CREATE TABLE `rpscreenings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`user_id` integer,
	`contact_id` integer,
	`name` text NOT NULL,
	`data_screened` text NOT NULL,
	`results` text NOT NULL,
	`status` text NOT NULL,
	`is_changed` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "rpscreenings_status_check" CHECK("rpscreenings"."status" in ('passed', 'failed'))
);
--> statement-breakpoint
CREATE INDEX `rpscreenings_ws_name_idx` ON `rpscreenings` (`workspace_id`,`name`);--> statement-breakpoint
CREATE INDEX `rpscreenings_ws_updated_idx` ON `rpscreenings` (`workspace_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `rpscreenings_ws_status_idx` ON `rpscreenings` (`workspace_id`,`status`);--> statement-breakpoint
CREATE INDEX `rpscreenings_contact_idx` ON `rpscreenings` (`contact_id`);--> statement-breakpoint
CREATE INDEX `rpscreenings_user_idx` ON `rpscreenings` (`user_id`);--> statement-breakpoint
CREATE TABLE `screening_audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`user_id` integer,
	`user_email` text,
	`kind` text NOT NULL,
	`contact_id` integer,
	`query` text NOT NULL,
	`lists` text NOT NULL,
	`matches` text NOT NULL,
	`outcome` text NOT NULL,
	`previous_status` text,
	`note` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	CONSTRAINT "screening_audit_log_kind_check" CHECK("screening_audit_log"."kind" in ('screen', 'override', 'search', 'rescreen'))
);
--> statement-breakpoint
CREATE INDEX `screening_audit_log_ws_idx` ON `screening_audit_log` (`workspace_id`,`id`);--> statement-breakpoint
CREATE TABLE `screening_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`list_id` integer NOT NULL,
	`source_list` text NOT NULL,
	`source_id` text NOT NULL,
	`entity_type` text NOT NULL,
	`name` text NOT NULL,
	`aliases` text NOT NULL,
	`programs` text NOT NULL,
	`addresses` text NOT NULL,
	`countries` text NOT NULL,
	`remarks` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`list_id`) REFERENCES `screening_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "screening_entries_type_check" CHECK("screening_entries"."entity_type" in ('entity', 'individual', 'vessel', 'aircraft'))
);
--> statement-breakpoint
CREATE INDEX `screening_entries_list_idx` ON `screening_entries` (`list_id`);--> statement-breakpoint
CREATE TABLE `screening_lists` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`source` text NOT NULL,
	`version_date` text NOT NULL,
	`row_count` integer NOT NULL,
	`checksum` text NOT NULL,
	`file_name` text NOT NULL,
	`imported_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`is_active` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX `screening_lists_source_idx` ON `screening_lists` (`source`,`is_active`);--> statement-breakpoint
CREATE TABLE `shipment_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shipment_id` integer NOT NULL,
	`product_id` integer NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`extended_value` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "shipment_items_quantity_check" CHECK("shipment_items"."quantity" >= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shipment_items_product_unique` ON `shipment_items` (`shipment_id`,`product_id`);--> statement-breakpoint
CREATE INDEX `shipment_items_product_idx` ON `shipment_items` (`product_id`);--> statement-breakpoint
CREATE TABLE `shipment_packages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shipment_id` integer NOT NULL,
	`package_id` integer NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`net_weight` integer DEFAULT 1000 NOT NULL,
	`gross_weight` integer DEFAULT 1000 NOT NULL,
	`length` integer DEFAULT 100 NOT NULL,
	`width` integer DEFAULT 100 NOT NULL,
	`height` integer DEFAULT 100 NOT NULL,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`package_id`) REFERENCES `packages`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "shipment_packages_quantity_check" CHECK("shipment_packages"."quantity" >= 1),
	CONSTRAINT "shipment_packages_weight_check" CHECK("shipment_packages"."net_weight" >= 10 and "shipment_packages"."gross_weight" >= 10),
	CONSTRAINT "shipment_packages_dimension_check" CHECK("shipment_packages"."length" >= 1 and "shipment_packages"."width" >= 1 and "shipment_packages"."height" >= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shipment_packages_package_unique` ON `shipment_packages` (`shipment_id`,`package_id`);--> statement-breakpoint
CREATE INDEX `shipment_packages_package_idx` ON `shipment_packages` (`package_id`);--> statement-breakpoint
CREATE TABLE `shipments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`exporter_of_record_id` integer,
	`importer_of_record_id` integer,
	`ultimate_consignee_id` integer,
	`freight` integer DEFAULT 0 NOT NULL,
	`insurance` integer DEFAULT 0 NOT NULL,
	`total_value` integer DEFAULT 0 NOT NULL,
	`total_invoice_value` integer DEFAULT 0 NOT NULL,
	`ship_date` text,
	`consignee_reference_number` text DEFAULT '' NOT NULL,
	`shipper_reference_number` text DEFAULT '' NOT NULL,
	`incoterm_id` integer,
	`carrier_id` integer,
	`bol_hawb_tracking` text DEFAULT '' NOT NULL,
	`payment_terms_id` integer,
	`currency_id` integer,
	`mode_of_transport_id` integer,
	`port_of_export` text DEFAULT '' NOT NULL,
	`port_of_import` text DEFAULT '' NOT NULL,
	`instructions_notes` text DEFAULT '' NOT NULL,
	`user_name` text DEFAULT '' NOT NULL,
	`user_title` text DEFAULT '' NOT NULL,
	`user_id` integer,
	`shipping_status_id` integer DEFAULT 2 NOT NULL,
	`tracking_number_1` text DEFAULT '' NOT NULL,
	`tracking_number_2` text DEFAULT '' NOT NULL,
	`total_pieces` integer DEFAULT 0 NOT NULL,
	`preview_statement_text` text DEFAULT '' NOT NULL,
	`generate_documents` text DEFAULT '[]' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`exporter_of_record_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`importer_of_record_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`ultimate_consignee_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`incoterm_id`) REFERENCES `incoterms`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`carrier_id`) REFERENCES `carriers`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`payment_terms_id`) REFERENCES `payment_terms`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`currency_id`) REFERENCES `currencies`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`mode_of_transport_id`) REFERENCES `modes_of_transport`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`shipping_status_id`) REFERENCES `shipping_statuses`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "shipments_money_check" CHECK("shipments"."freight" >= 0 and "shipments"."insurance" >= 0 and "shipments"."total_value" >= 0)
);
--> statement-breakpoint
CREATE INDEX `shipments_ws_updated_idx` ON `shipments` (`workspace_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `shipments_ws_ship_date_idx` ON `shipments` (`workspace_id`,`ship_date`);--> statement-breakpoint
CREATE INDEX `shipments_ws_status_idx` ON `shipments` (`workspace_id`,`shipping_status_id`);--> statement-breakpoint
CREATE INDEX `shipments_ws_shipper_ref_idx` ON `shipments` (`workspace_id`,`shipper_reference_number`);--> statement-breakpoint
CREATE INDEX `shipments_ws_carrier_idx` ON `shipments` (`workspace_id`,`carrier_id`);--> statement-breakpoint
CREATE INDEX `shipments_ws_tracking1_idx` ON `shipments` (`workspace_id`,`tracking_number_1`);--> statement-breakpoint
CREATE INDEX `shipments_ws_tracking2_idx` ON `shipments` (`workspace_id`,`tracking_number_2`);--> statement-breakpoint
CREATE INDEX `shipments_ws_user_idx` ON `shipments` (`workspace_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `shipments_exporter_idx` ON `shipments` (`exporter_of_record_id`);--> statement-breakpoint
CREATE INDEX `shipments_importer_idx` ON `shipments` (`importer_of_record_id`);--> statement-breakpoint
CREATE INDEX `shipments_consignee_idx` ON `shipments` (`ultimate_consignee_id`);--> statement-breakpoint
CREATE INDEX `shipments_incoterm_idx` ON `shipments` (`incoterm_id`);--> statement-breakpoint
CREATE INDEX `shipments_carrier_idx` ON `shipments` (`carrier_id`);--> statement-breakpoint
CREATE INDEX `shipments_payment_terms_idx` ON `shipments` (`payment_terms_id`);--> statement-breakpoint
CREATE INDEX `shipments_currency_idx` ON `shipments` (`currency_id`);--> statement-breakpoint
CREATE INDEX `shipments_mode_idx` ON `shipments` (`mode_of_transport_id`);--> statement-breakpoint
CREATE INDEX `shipments_status_idx` ON `shipments` (`shipping_status_id`);--> statement-breakpoint
CREATE INDEX `shipments_user_idx` ON `shipments` (`user_id`);