ALTER TABLE `contacts` ADD `screening_outcome` text;--> statement-breakpoint
ALTER TABLE `contacts` ADD `screening_review_date` text;--> statement-breakpoint
CREATE INDEX `contacts_ws_screening_company_idx` ON `contacts` (`workspace_id`,`screening_outcome`,"company" collate nocase);