ALTER TABLE `contact_screening_results` ADD `review_date` text;--> statement-breakpoint
ALTER TABLE `rpscreenings` ADD `review_date` text;--> statement-breakpoint
CREATE INDEX `rpscreenings_ws_review_idx` ON `rpscreenings` (`workspace_id`,`review_date`);