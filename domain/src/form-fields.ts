// How form fields arrive (strings from form-encoded or multipart bodies, real values from JSON clients),
// turned into what schemas check. Every schema of Novus reads its lists, booleans and optional values so.
import { z } from './zod.ts';

/** '' and null mean "not given". */
export const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/** A list sent as an array, a JSON array string, a comma-separated string or one repeated form field. */
export function toList(value: unknown): unknown {
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text.startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch {
      return value;
    }
  }
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

export const listField = <T extends z.ZodType>(item: T, message: string) =>
  z.preprocess(toList, z.array(item, { error: message }));

/** 'true', 'on', '1' or 'sim' from a form; a real boolean from JSON; absent is false. */
export const booleanField = (message = 'Valor inválido.') =>
  z.preprocess(
    (value) => {
      if (typeof value === 'string') return ['true', 'on', '1', 'sim'].includes(value.toLowerCase());
      return value ?? false;
    },
    z.boolean({ error: message }),
  );
