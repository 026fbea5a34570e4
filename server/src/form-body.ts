// application/x-www-form-urlencoded bodies (the back office's forms, the project form's files as raw text).
import { decodeTextFile } from '@novus/domain/geo/text-file';

export type FormBody = Record<string, string | string[]>;

/**
 * Parses a form body as @fastify/formbody's default parser does (repeated names become lists), except for values
 * whose %-escapes are not UTF-8: a point file a script sent from a Latin-1 spreadsheet ('S%E3o') is read as
 * Windows-1252 instead of being kept with its escapes.
 */
export function parseFormBody(body: string): FormBody {
  // No prototype: a field named __proto__ or constructor is just a field.
  const form = Object.create(null) as FormBody;
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const name = decodeFormComponent(at < 0 ? pair : pair.slice(0, at));
    const value = at < 0 ? '' : decodeFormComponent(pair.slice(at + 1));
    const previous = form[name];
    if (previous === undefined) form[name] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else form[name] = [previous, value];
  }
  return form;
}

function decodeFormComponent(text: string): string {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    // a malformed escape, or escaped bytes that are not UTF-8
  }
  // Bytes, escaped or plain ASCII: decoded as a text file is (UTF-8, else Windows-1252); a malformed escape stays
  // as it was typed. A body with raw non-ASCII bytes was already decoded by the server as UTF-8: left alone.
  if (!/^\p{ASCII}*$/u.test(spaced)) return spaced;
  return decodeTextFile(percentDecodedBytes(spaced));
}

/** The bytes of an ASCII form value: each %XX one byte, every other character itself. */
function percentDecodedBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  let length = 0;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    const hex = code === 0x25 ? text.slice(at + 1, at + 3) : '';
    if (hex !== '' && /^[0-9a-f]{2}$/i.test(hex)) {
      bytes[length] = Number.parseInt(hex, 16);
      at += 2;
    } else {
      bytes[length] = code;
    }
    length += 1;
  }
  return bytes.subarray(0, length);
}
