import { Button, CircularProgress } from '@mui/material';

/** Gravar: disabled with a spinner while the form is being sent (SPEC.md section 4). */
export function SubmitButton({ sending }: { sending: boolean }) {
  return (
    <Button
      type="submit"
      variant="contained"
      disabled={sending}
      startIcon={sending ? <CircularProgress size={18} color="inherit" aria-label="Gravando" /> : undefined}
    >
      Gravar
    </Button>
  );
}
