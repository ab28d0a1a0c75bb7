// US dollar conversion at a shipment's stored exchange rate: one rule for the EEI values and the
// reports' USD column.

const RATE_SCALE = 10n ** 10n;

/** A rate such as "1.0845" scaled by 10^10, or null when not a positive decimal. */
export function rateToScaled(rate: string): bigint | null {
  const m = /^(\d{1,9})(?:\.(\d{1,10}))?$/.exec(rate.trim());
  if (!m) return null;
  const scaled = BigInt(m[1] + (m[2] ?? "").padEnd(10, "0"));
  return scaled > 0n ? scaled : null;
}

/**
 * Cents of the shipment's currency → US cents at the stored rate (half up); null when it cannot be
 * converted. A shipment without a currency yet is read as US dollars, as its invoice would default.
 */
export function toUsdCents(cents: bigint, currencyCode: string | null, rate: string): bigint | null {
  if (currencyCode === "USD" || currencyCode === null) return cents;
  const scaled = rateToScaled(rate);
  if (scaled === null) return null;
  return (cents * scaled + RATE_SCALE / 2n) / RATE_SCALE;
}
