DROP INDEX `contacts_ws_company_idx`;--> statement-breakpoint
CREATE INDEX `contacts_ws_company_idx` ON `contacts` (`workspace_id`,"company" collate nocase);