CREATE TABLE `stored_file_chunks` (
	`key` text NOT NULL,
	`seq` integer NOT NULL,
	`data` blob NOT NULL,
	PRIMARY KEY(`key`, `seq`),
	FOREIGN KEY (`key`) REFERENCES `stored_files`(`key`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `stored_files` (
	`key` text PRIMARY KEY NOT NULL,
	`size` integer NOT NULL,
	`chunk_count` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
