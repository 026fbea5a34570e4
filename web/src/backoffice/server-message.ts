import { joinErrors } from '@novus/domain/messages';
import { ApiError } from '../api/client';

/** The server's message (or its validation errors, joined per SPEC.md section 5), else `fallback`. */
export function serverMessageOr(error: unknown, fallback: string, mode: 'create' | 'edit' = 'edit'): string {
  if (!(error instanceof ApiError)) return fallback;
  const text = joinErrors(error.body, mode);
  return text.length > 0 ? text : fallback;
}
