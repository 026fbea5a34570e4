// react-hook-form validation with a flow's zod schema from domain/ (STYLE.md rule 3: the form and the server
// validate alike). The domain's cross-field rules carry no path, so each is placed on its field by its message.
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/** Message prefix of a path-less rule → the field it is about. */
export type MessageFields = readonly (readonly [prefix: string, field: string])[];

export function fieldErrorsOf(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  messageFields: MessageFields,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const head = issue.path[0];
    const field =
      typeof head === 'string'
        ? head
        : (messageFields.find(([prefix]) => issue.message.startsWith(prefix))?.[1] ?? 'root');
    errors[field] ??= issue.message;
  }
  return errors;
}

export function domainResolver<T extends FieldValues>(
  schema: z.ZodType,
  messageFields: MessageFields = [],
): Resolver<T> {
  return async (values) => {
    const result = await schema.safeParseAsync(values);
    if (result.success) return { values, errors: {} };
    const byField = fieldErrorsOf(result.error.issues, messageFields);
    const errors = Object.fromEntries(
      Object.entries(byField).map(([field, message]) => [field, { type: 'validation', message }]),
    );
    // the keys are the form's own field names (or 'root'), which is what FieldErrors holds
    return { values: {}, errors: errors as FieldErrors<T> };
  };
}
