// Inputs the vegetation form needs beyond the shared ones: a yes/no question that reveals its details, and a list
// of checkboxes for a string[] field.
import type { ReactNode } from 'react';
import {
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Radio,
  RadioGroup,
} from '@mui/material';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import type { Resposta } from './arvore-values';

/** Sim / Não as real radios under a legend; `children` (the details) show only on Sim. */
export function SimNaoInput({
  legend,
  value,
  onChange,
  disabled,
  children,
}: {
  legend: string;
  value: Resposta;
  onChange: (resposta: Resposta) => void;
  disabled?: boolean;
  children?: ReactNode;
}) {
  return (
    <FormControl component="fieldset" disabled={disabled}>
      <FormLabel component="legend">{legend}</FormLabel>
      <RadioGroup
        row
        value={value}
        onChange={(event) => onChange(event.target.value === 'sim' ? 'sim' : 'nao')}
      >
        <FormControlLabel sx={{ minHeight: 48 }} value="sim" control={<Radio />} label="Sim" />
        <FormControlLabel sx={{ minHeight: 48 }} value="nao" control={<Radio />} label="Não" />
      </RadioGroup>
      {value === 'sim' && children}
    </FormControl>
  );
}

/** A string[] field as one checkbox per option, in the options' order. */
export function CheckboxListInput<T extends FieldValues>({
  control,
  name,
  legend,
  options,
  disabled,
  onChange,
}: {
  control: Control<T>;
  name: Path<T>;
  legend: string;
  options: readonly string[];
  disabled?: boolean;
  /** Replaces the plain update, for lists that change other fields (a network in contact is at 0 cm). */
  onChange?: (selected: string[]) => void;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const selected: readonly unknown[] = Array.isArray(field.value) ? field.value : [];
        const toggle = (option: string, checked: boolean) => {
          const next = options.filter((candidate) =>
            candidate === option ? checked : selected.includes(candidate),
          );
          if (onChange) onChange(next);
          else field.onChange(next);
        };
        return (
          <FormControl component="fieldset" error={fieldState.error !== undefined} sx={{ pl: 2 }}>
            <FormLabel component="legend">{legend}</FormLabel>
            <FormGroup>
              {options.map((option) => (
                <FormControlLabel
                  key={option}
                  sx={{ minHeight: 48 }}
                  control={
                    <Checkbox
                      checked={selected.includes(option)}
                      onChange={(event) => toggle(option, event.target.checked)}
                      onBlur={field.onBlur}
                      disabled={disabled}
                    />
                  }
                  label={option}
                />
              ))}
            </FormGroup>
            {fieldState.error && <FormHelperText>{fieldState.error.message}</FormHelperText>}
          </FormControl>
        );
      }}
    />
  );
}
