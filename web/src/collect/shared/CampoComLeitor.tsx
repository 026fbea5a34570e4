// A text field people copy from a label (meter, UC, plate), with a scan button beside it (issue 26). The field
// stays typeable: some labels are worn or printed badly and never scan.
import { lazy, Suspense, useState } from 'react';
import QrCodeScannerIcon from '@mui/icons-material/QrCodeScanner';
import { Box, IconButton, Stack } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { TextInput } from './fields';

const LeitorCodigoDialog = lazy(() =>
  import('./LeitorCodigoDialog').then((m) => ({ default: m.LeitorCodigoDialog })),
);

export function CampoComLeitor<T extends FieldValues>({
  form,
  name,
  label,
  required,
  disabled,
}: {
  form: UseFormReturn<T>;
  name: Path<T>;
  label: string;
  required?: boolean;
  disabled?: boolean;
}) {
  const [lendo, setLendo] = useState(false);
  const lido = (texto: string) => {
    // Every field with a scan button is a text field of its flow's schema, so a string is its value's type.
    form.setValue(name, texto as PathValue<T, Path<T>>, {
      shouldDirty: true,
      shouldTouch: true,
      shouldValidate: true,
    });
    setLendo(false);
  };
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <TextInput control={form.control} name={name} label={label} required={required} disabled={disabled} />
      </Box>
      <IconButton
        onClick={() => setLendo(true)}
        disabled={disabled}
        color="primary"
        sx={{ mt: 0.5, width: 48, height: 48, flexShrink: 0, border: 1, borderRadius: 1 }}
      >
        <QrCodeScannerIcon />
        {/* Named by hidden text, not aria-label: the field's label stays the only label that reads 'Medidor'. */}
        <Box component="span" sx={visuallyHidden}>
          Ler código de barras de {label}
        </Box>
      </IconButton>
      {lendo && (
        <Suspense fallback={null}>
          <LeitorCodigoDialog campo={label} onLido={lido} onFechar={() => setLendo(false)} />
        </Suspense>
      )}
    </Stack>
  );
}
