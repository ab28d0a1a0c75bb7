import { hmac } from "@oslojs/crypto/hmac";
import { SHA256 } from "@oslojs/crypto/sha2";
import { constantTimeEqual } from "@oslojs/crypto/subtle";
import { decodeHex, encodeHexLowerCase } from "@oslojs/encoding";

const encoder = new TextEncoder();

/** HMAC-SHA256 of the parts joined with "\n", hex-encoded: the signature of an e-mailed link. */
export function sign(secret: string, parts: readonly (string | number)[]): string {
  return encodeHexLowerCase(hmac(SHA256, encoder.encode(secret), encoder.encode(parts.join("\n"))));
}

/** Checks a signature in constant time, so timing reveals nothing about the expected value. */
export function verifySignature(
  secret: string,
  parts: readonly (string | number)[],
  signature: string,
): boolean {
  if (!/^[0-9a-f]{64}$/.test(signature)) return false;
  return constantTimeEqual(decodeHex(sign(secret, parts)), decodeHex(signature));
}
