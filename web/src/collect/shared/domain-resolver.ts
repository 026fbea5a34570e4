// react-hook-form validation with a flow's zod schema from domain/ (STYLE.md rule 3: the form and the server
// validate alike). Every domain rule names its field (its path); a rule without one shows as the form's root.
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

export function fieldErrorsOf(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const head = issue.path[0];
    errors[typeof head === 'string' ? head : 'root'] ??= issue.message;
  }
  return errors;
}

export function domainResolver<T extends FieldValues>(schema: z.ZodType): Resolver<T> {
  return async (values) => {
    const result = await schema.safeParseAsync(values);
    if (result.success) return { values, errors: {} };
    const byField = fieldErrorsOf(result.error.issues);
    const errors = Object.fromEntries(
      Object.entries(byField).map(([field, message]) => [field, { type: 'validation', message }]),
    );
    // the keys are the form's own field names (or 'root'), which is what FieldErrors holds
    return { values: {}, errors: errors as FieldErrors<T> };
  };
}
