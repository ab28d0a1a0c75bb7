DROP INDEX `rpscreenings_ws_name_idx`;--> statement-breakpoint
CREATE INDEX `rpscreenings_ws_name_idx` ON `rpscreenings` (`workspace_id`,"name" collate nocase);