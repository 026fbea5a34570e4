// Form inputs wired to react-hook-form: every input labelled, errors in Portuguese under the field,
// native selects (the phone's own picker: big, familiar, works with gloves).
import { type ChangeEvent, useId } from 'react';
import { Box, Checkbox, FormControlLabel, FormHelperText, TextField } from '@mui/material';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { REPETIR_TEXTS } from './repetir';

interface BaseProps<T extends FieldValues> {
  control: Control<T>;
  name: Path<T>;
  label: string;
  disabled?: boolean;
  required?: boolean;
  /** Filled by 'Repetir último' and not changed since: said in words under the field, not by colour alone. */
  repeated?: boolean;
}

/** Under a field: its error first, else the repeat's mark. */
const helperOf = (error: string | undefined, repeated: boolean | undefined) =>
  error ?? (repeated ? REPETIR_TEXTS.mark : undefined);

export function TextInput<T extends FieldValues>({
  control,
  name,
  label,
  disabled,
  required,
  repeated,
  numeric,
  decimal,
  multiline,
}: BaseProps<T> & {
  numeric?: boolean;
  /** A number with decimals, typed with a comma or a point as a Brazilian keyboard gives them. */
  decimal?: boolean;
  multiline?: boolean;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          value={field.value ?? ''}
          label={label}
          required={required}
          disabled={disabled}
          fullWidth
          multiline={multiline}
          minRows={multiline ? 2 : undefined}
          error={fieldState.error !== undefined}
          helperText={helperOf(fieldState.error?.message, repeated)}
          slotProps={{
            htmlInput: numeric
              ? { inputMode: 'numeric', pattern: '[0-9]*' }
              : decimal
                ? { inputMode: 'decimal' }
                : undefined,
          }}
        />
      )}
    />
  );
}

export function SelectInput<T extends FieldValues>({
  control,
  name,
  label,
  options,
  disabled,
  required,
  repeated,
  onChange,
  emptyOption = true,
}: BaseProps<T> & {
  options: readonly (string | { value: string; label: string })[];
  /** Replaces the plain update, for fields that change others (tipoUnidade, tipoEdificacao). */
  onChange?: (value: string) => void;
  emptyOption?: boolean;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          value={field.value ?? ''}
          onChange={(event: ChangeEvent<HTMLInputElement>) =>
            onChange ? onChange(event.target.value) : field.onChange(event.target.value)
          }
          select
          label={label}
          required={required}
          disabled={disabled}
          fullWidth
          error={fieldState.error !== undefined}
          helperText={helperOf(fieldState.error?.message, repeated)}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          {emptyOption && <option value="">Selecione</option>}
          {options.map((option) => {
            const { value, label: text } =
              typeof option === 'string' ? { value: option, label: option } : option;
            return (
              <option key={value} value={value}>
                {text}
              </option>
            );
          })}
        </TextField>
      )}
    />
  );
}

export function CheckboxInput<T extends FieldValues>({
  control,
  name,
  label,
  disabled,
  repeated,
  onChange,
}: BaseProps<T> & {
  /** Runs after the box changes, for fields that change others (unticking IP clears its anomaly). */
  onChange?: (checked: boolean) => void;
}) {
  const markId = useId();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Box>
          <FormControlLabel
            sx={{ minHeight: 48 }}
            control={
              <Checkbox
                checked={Boolean(field.value)}
                onChange={(event) => {
                  field.onChange(event.target.checked);
                  onChange?.(event.target.checked);
                }}
                onBlur={field.onBlur}
                disabled={disabled}
                slotProps={{ input: { 'aria-describedby': repeated ? markId : undefined } }}
              />
            }
            label={label}
          />
          {repeated && (
            <FormHelperText id={markId} sx={{ mt: 0, mx: 1.75 }}>
              {REPETIR_TEXTS.mark}
            </FormHelperText>
          )}
        </Box>
      )}
    />
  );
}
