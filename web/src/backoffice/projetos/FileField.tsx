// One upload of the project form (zoning KML or a flow's points): a real button opens the hidden input;
// the picked file's name and count, the saved count, or the parse error show beside it.
import { useRef, type ReactNode } from 'react';
import { Alert, Box, Button, FormHelperText, IconButton, Stack, Typography } from '@mui/material';
import ClearIcon from '@mui/icons-material/Clear';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import type { PickedFile } from './projeto-form';

interface Props {
  /** The button's text, e.g. 'Escolher arquivo KML'. */
  buttonLabel: string;
  /** The hidden input's label, e.g. 'Arquivo KML'. */
  inputLabel: string;
  accept: string;
  help: ReactNode;
  picked: PickedFile | undefined;
  error: string | undefined;
  /** '3 zonas (já cadastradas)': what the server keeps while no file is picked. */
  savedText: string | null;
  /** '3 zonas', '4 pontos'. */
  countText: (count: number) => string;
  disabled?: boolean;
  onPick: (file: File) => void;
  onClear: () => void;
}

export function FileField(props: Props) {
  const { buttonLabel, inputLabel, accept, help, picked, error, savedText, countText, disabled } = props;
  const input = useRef<HTMLInputElement>(null);
  return (
    <Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          startIcon={<UploadFileIcon />}
          disabled={disabled}
          onClick={() => input.current?.click()}
        >
          {buttonLabel}
        </Button>
        <input
          ref={input}
          type="file"
          hidden
          accept={accept}
          aria-label={inputLabel}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            // the same file picked again must fire change again
            event.currentTarget.value = '';
            if (file !== undefined) props.onPick(file);
          }}
        />
        {picked !== undefined ? (
          <>
            <Typography variant="body2">
              {picked.name} — <strong>{countText(picked.count)}</strong>
            </Typography>
            <IconButton size="small" aria-label={`Remover ${picked.name}`} onClick={props.onClear}>
              <ClearIcon fontSize="small" />
            </IconButton>
          </>
        ) : (
          savedText !== null && <Typography variant="body2">{savedText}</Typography>
        )}
      </Stack>
      <FormHelperText>{help}</FormHelperText>
      {error !== undefined && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
    </Box>
  );
}
