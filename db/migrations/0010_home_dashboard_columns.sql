CREATE TABLE `home_versions` (
	`workspace_id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `shipments` ADD `effective_date` text;--> statement-breakpoint
ALTER TABLE `shipments` ADD `destination_country_id` integer;--> statement-breakpoint
CREATE INDEX `shipments_ws_home_idx` ON `shipments` (`workspace_id`,`effective_date`,`shipping_status_id`,`destination_country_id`);--> statement-breakpoint
CREATE INDEX `shipments_ws_destination_idx` ON `shipments` (`workspace_id`,`destination_country_id`,`shipping_status_id`);