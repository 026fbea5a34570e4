/** A UUID as text, any version, either case: every id of the API (a malformed one is a 400, never a database error). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Record ids are made on the device, where the record is born: UUID v7 (time-ordered, RFC 9562), so the id
// is the idempotency key of its upload and sorts by creation time.
export function uuidv7(
  now: number = Date.now(),
  random: (bytes: Uint8Array) => Uint8Array = fillRandom,
): string {
  const bytes = random(new Uint8Array(16));
  const time = BigInt(now);
  for (let i = 0; i < 6; i += 1) bytes[i] = Number((time >> BigInt(8 * (5 - i))) & 0xffn);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70; // version 7
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // variant 10
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function fillRandom(bytes: Uint8Array): Uint8Array {
  return globalThis.crypto.getRandomValues(bytes);
}
