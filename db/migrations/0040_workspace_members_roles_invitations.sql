CREATE TABLE `invitations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`email` text NOT NULL,
	`title` text NOT NULL,
	`name` text NOT NULL,
	`surname` text NOT NULL,
	`roles` text NOT NULL,
	`invited_by_user_id` integer,
	`expires_at` integer NOT NULL,
	`accepted_at` text,
	`revoked_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invited_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `invitations_workspace_idx` ON `invitations` (`workspace_id`);--> statement-breakpoint
CREATE INDEX `invitations_email_idx` ON `invitations` (`email`);--> statement-breakpoint
ALTER TABLE `users` ADD `roles` text DEFAULT 'admin,compliance' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `last_sign_in_at` text;--> statement-breakpoint
ALTER TABLE `users` ADD `removed_at` text;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `two_person_release` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `shipments` ADD `updated_by_user_id` integer REFERENCES users(id);--> statement-breakpoint
CREATE INDEX `shipments_ws_updated_by_idx` ON `shipments` (`workspace_id`,`updated_by_user_id`);