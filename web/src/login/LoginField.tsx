// An outlined text field as MUI's TextField draws it, from the parts it is made of: TextField carries Select (its
// menu, popover and modal), which the login, on the first page, never uses.
import { useId } from 'react';
import { FormControl, FormHelperText, InputLabel, OutlinedInput } from '@mui/material';

export function LoginField({
  label,
  name,
  type = 'text',
  autoComplete,
  error,
  autoCapitalize,
}: {
  label: string;
  name: string;
  type?: string;
  autoComplete: string;
  autoCapitalize?: string;
  /** The field's problem, shown under it. */
  error: string | undefined;
}) {
  const id = useId();
  const helperId = `${id}-helper`;
  return (
    <FormControl variant="outlined" required error={error !== undefined}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        name={name}
        type={type}
        label={label}
        autoComplete={autoComplete}
        inputProps={{ autoCapitalize }}
        aria-describedby={error !== undefined ? helperId : undefined}
      />
      {error !== undefined && <FormHelperText id={helperId}>{error}</FormHelperText>}
    </FormControl>
  );
}
