ALTER TABLE `shipment_items` ADD `schedule_b_unit` text DEFAULT 'NO' NOT NULL;--> statement-breakpoint
ALTER TABLE `shipment_items` ADD `schedule_b_quantity` text DEFAULT '' NOT NULL;