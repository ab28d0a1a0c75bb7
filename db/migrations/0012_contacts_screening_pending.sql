ALTER TABLE `contacts` ADD `screening_pending` integer DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX `contacts_screening_pending_idx` ON `contacts` (`screening_pending`);