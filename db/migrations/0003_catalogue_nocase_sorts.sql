DROP INDEX `licenses_ws_name_idx`;--> statement-breakpoint
CREATE INDEX `licenses_ws_name_idx` ON `licenses` (`workspace_id`,"licence_name" collate nocase);--> statement-breakpoint
DROP INDEX `msdocuments_ws_name_idx`;--> statement-breakpoint
CREATE INDEX `msdocuments_ws_name_idx` ON `msdocuments` (`workspace_id`,"name" collate nocase);--> statement-breakpoint
DROP INDEX `products_ws_number_idx`;--> statement-breakpoint
DROP INDEX `products_ws_description_idx`;--> statement-breakpoint
CREATE INDEX `products_ws_name_idx` ON `products` (`workspace_id`,"name" collate nocase);--> statement-breakpoint
CREATE INDEX `products_ws_number_idx` ON `products` (`workspace_id`,"product_number" collate nocase);--> statement-breakpoint
CREATE INDEX `products_ws_description_idx` ON `products` (`workspace_id`,"description" collate nocase);--> statement-breakpoint
DROP INDEX `wikis_ws_name_idx`;--> statement-breakpoint
DROP INDEX `wikis_ws_description_idx`;--> statement-breakpoint
CREATE INDEX `wikis_ws_name_idx` ON `wikis` (`workspace_id`,"name" collate nocase);--> statement-breakpoint
CREATE INDEX `wikis_ws_description_idx` ON `wikis` (`workspace_id`,"description" collate nocase);