/**
 * Exact decimal <-> scaled integer conversion. Works on the decimal's digits as text, so
 * "0.1" + "0.2" style float errors cannot creep into money or weights.
 */
const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/** Parses "1234.5" (or a finite number) into an integer scaled by 10^scale; throws on more precision than the scale allows. */
export function decimalToScaled(value: string | number, scale: number): number {
  const text = typeof value === "number" ? numberToPlainString(value) : value.trim();
  const match = DECIMAL.exec(text);
  if (!match) throw new RangeError(`Not a decimal number: ${JSON.stringify(value)}`);
  const [, sign, whole, frac = ""] = match;
  const trimmed = frac.replace(/0+$/, "");
  if (trimmed.length > scale) throw new RangeError(`At most ${scale} decimal places are allowed`);
  const scaled = Number(whole + trimmed.padEnd(scale, "0"));
  if (!Number.isSafeInteger(scaled)) throw new RangeError("Number is too large");
  return sign && scaled !== 0 ? -scaled : scaled;
}

/** Formats an integer scaled by 10^scale as a decimal string with exactly `scale` places. */
export function scaledToDecimal(scaled: number, scale: number): string {
  const negative = scaled < 0;
  const digits = Math.abs(Math.trunc(scaled))
    .toString()
    .padStart(scale + 1, "0");
  const whole = scale === 0 ? digits : digits.slice(0, -scale);
  const frac = scale === 0 ? "" : `.${digits.slice(-scale)}`;
  return `${negative ? "-" : ""}${whole}${frac}`;
}

/** True when the value is a decimal with at most `scale` places (the check a contract applies). */
export function isDecimal(value: string | number, scale: number): boolean {
  try {
    decimalToScaled(value, scale);
    return true;
  } catch {
    return false;
  }
}

function numberToPlainString(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  // toString gives exponent notation for tiny/huge numbers; toFixed(10) then trim covers inputs a form can send.
  const plain = Math.abs(value) < 1e21 ? value.toFixed(10) : value.toString();
  return plain.includes(".") ? plain.replace(/0+$/, "").replace(/\.$/, "") : plain;
}
