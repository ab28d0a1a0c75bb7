import { sql } from "drizzle-orm";
import { customType, integer, text } from "drizzle-orm/sqlite-core";
import { decimalToScaled, scaledToDecimal } from "../contracts/decimal";

/**
 * An exact decimal stored as a scaled integer (money ×100, kilograms ×1000, inches ×100).
 * The JS side always sees a decimal string such as "1234.50", so no binary float ever
 * touches a money or weight value, and SQL can still sort and sum the integers.
 */
export const fixed = (scale: number) =>
  customType<{ data: string; driverData: number }>({
    dataType: () => "integer",
    toDriver: (value) => decimalToScaled(value, scale),
    fromDriver: (value) => scaledToDecimal(Number(value), scale),
  });

export const money = fixed(2);
export const weight = fixed(3);
export const dimension = fixed(2);

/** ISO-8601 UTC timestamp text, set by the database so every writer agrees on the clock. */
export const createdAt = () => text().notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`);
export const updatedAt = () => text().notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`);

/** A 0/1 flag, as the spec sends flags. */
export const flag = () => integer({ mode: "boolean" }).notNull().default(false);
