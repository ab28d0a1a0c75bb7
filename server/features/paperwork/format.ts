// Exact formatting for the paperwork: every figure comes from the scaled-integer decimals
// (docs/decisions/001) and unit conversions run in BigInt, so no float ever reaches a document.
import { decimalToScaled, scaledToDecimal } from "../../../db/contracts/decimal";

/** "1234567.5" → "1,234,567.50" (scale digits kept). */
export function groupThousands(decimal: string): string {
  const negative = decimal.startsWith("-");
  const [whole, frac] = (negative ? decimal.slice(1) : decimal).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative ? "-" : ""}${grouped}${frac !== undefined ? `.${frac}` : ""}`;
}

/** Money as printed: thousands separators, two decimals, the currency code: "USD 1,234.50". */
export function formatMoney(value: string, currency: string): string {
  const amount = groupThousands(scaledToDecimal(decimalToScaled(value || "0", 2), 2));
  return currency ? `${currency} ${amount}` : amount;
}

/** Divides with half-up rounding in BigInt. */
function divRound(numerator: bigint, denominator: bigint): bigint {
  const q = numerator / denominator;
  const r = numerator % denominator;
  return r * 2n >= denominator ? q + 1n : q;
}

/** kg (3 decimals) → "12.345 kg (27.22 lb)"; 1 lb is exactly 0.45359237 kg. */
export function formatWeight(kg: string): string {
  const grams = BigInt(decimalToScaled(kg || "0", 3));
  // lb × 100 = grams / 453.59237 × 100 = grams × 10^7 / 45359237
  const hundredthsLb = divRound(grams * 10_000_000n, 45_359_237n);
  // A gram or two is less than a hundredth of a pound: '0.00 lb' would read as weightless.
  const lb =
    grams > 0n && hundredthsLb === 0n ? "< 0.01" : groupThousands(scaledToDecimal(Number(hundredthsLb), 2));
  return `${groupThousands(scaledToDecimal(Number(grams), 3))} kg (${lb} lb)`;
}

/** inches (2 decimals) → centimetres (2 decimals); 1 in is exactly 2.54 cm. */
export function inchesToCm(inches: string): string {
  const hundredthsIn = BigInt(decimalToScaled(inches || "0", 2));
  return scaledToDecimal(Number(divRound(hundredthsIn * 254n, 100n)), 2);
}

/** "10 × 8 × 6 in (25.40 × 20.32 × 15.24 cm)". */
export function formatDimensions(length: string, width: string, height: string): string {
  const inches = [length, width, height].map((v) => scaledToDecimal(decimalToScaled(v || "0", 2), 2));
  const cm = [length, width, height].map(inchesToCm);
  return `${inches.join(" × ")} in (${cm.join(" × ")} cm)`;
}

/** Volume of `quantity` boxes in cubic inches × 10^6 (exact), from dimensions in inches. */
export function volumeMicroCubicInches(
  quantity: number,
  length: string,
  width: string,
  height: string,
): bigint {
  const [l, w, h] = [length, width, height].map((v) => BigInt(decimalToScaled(v || "0", 2)));
  return BigInt(quantity) * l * w * h;
}

/** Cubic inches × 10^6 → "1.234 m³ (43.58 ft³)"; 1 in³ is exactly 16.387064 cm³. */
export function formatVolume(microCubicInches: bigint): string {
  // m³ × 1000 = in³ × 16.387064e-6 × 1000 = µin³ × 16387064 / 10^15
  const milliM3 = divRound(microCubicInches * 16_387_064n, 1_000_000_000_000_000n);
  // ft³ × 100 = in³ / 1728 × 100 = µin³ / (1728 × 10^4)
  const hundredthsFt3 = divRound(microCubicInches, 17_280_000n);
  return `${groupThousands(scaledToDecimal(Number(milliM3), 3))} m³ (${groupThousands(scaledToDecimal(Number(hundredthsFt3), 2))} ft³)`;
}

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

/**
 * YYYY-MM-DD → 10-DEC-2026. Documents travel abroad, where '12/10/2026' reads as 12 October: the
 * month is spelled out. (Screens keep the product's MM/DD/YYYY.)
 */
export function formatDate(iso: string | null | undefined): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso ?? "");
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  return match && month ? `${match[3]}-${month}-${match[1]}` : "";
}

/** Sums decimal strings exactly at a scale. */
export function sumDecimals(values: string[], scale: number): string {
  return scaledToDecimal(
    values.reduce((total, v) => total + decimalToScaled(v || "0", scale), 0),
    scale,
  );
}

/** decimal × whole quantity, exactly. */
export function multiplyDecimal(value: string, quantity: number, scale: number): string {
  return scaledToDecimal(decimalToScaled(value || "0", scale) * quantity, scale);
}
