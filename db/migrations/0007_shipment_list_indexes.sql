CREATE INDEX `shipments_ws_name_idx` ON `shipments` (`workspace_id`,`name`);--> statement-breakpoint
CREATE INDEX `shipments_ws_consignee_ref_idx` ON `shipments` (`workspace_id`,`consignee_reference_number`);--> statement-breakpoint
CREATE INDEX `shipments_ws_importer_idx` ON `shipments` (`workspace_id`,`importer_of_record_id`);--> statement-breakpoint
CREATE INDEX `shipments_ws_exporter_idx` ON `shipments` (`workspace_id`,`exporter_of_record_id`);--> statement-breakpoint
CREATE INDEX `shipments_ws_total_value_idx` ON `shipments` (`workspace_id`,`total_value`);--> statement-breakpoint
CREATE INDEX `shipments_ws_status_updated_idx` ON `shipments` (`workspace_id`,`shipping_status_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `shipments_ws_status_ship_date_idx` ON `shipments` (`workspace_id`,`shipping_status_id`,`ship_date`);