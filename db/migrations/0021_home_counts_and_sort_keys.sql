CREATE TABLE `home_counts` (
	`workspace_id` integer NOT NULL,
	`level` integer NOT NULL,
	`bucket` text NOT NULL,
	`status_id` integer NOT NULL,
	`destination_country_id` integer NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `level`, `bucket`, `status_id`, `destination_country_id`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `shipments` ADD `addressee` text;--> statement-breakpoint
ALTER TABLE `shipments` ADD `destination_name` text;--> statement-breakpoint
CREATE INDEX `shipments_ws_addressee_idx` ON `shipments` (`workspace_id`,"addressee" collate nocase,`id`,`effective_date`,`shipping_status_id`);--> statement-breakpoint
CREATE INDEX `shipments_ws_destination_name_idx` ON `shipments` (`workspace_id`,"destination_name" collate nocase,`id`,`effective_date`,`shipping_status_id`);--> statement-breakpoint
CREATE INDEX `shipments_ws_tracking_nocase_idx` ON `shipments` (`workspace_id`,"tracking_number_1" collate nocase,`id`,`tracking_number_2`,`effective_date`,`shipping_status_id`);