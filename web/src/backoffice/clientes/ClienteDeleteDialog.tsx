import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';

interface Props {
  open: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ClienteDeleteDialog({ open, onConfirm, onCancel }: Props) {
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      aria-labelledby="cliente-delete-title"
      aria-describedby="cliente-delete-text"
    >
      <DialogTitle id="cliente-delete-title">Tem certeza?</DialogTitle>
      <DialogContent>
        <DialogContentText id="cliente-delete-text">Isso irá remover o cliente</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onConfirm} color="error">
          Sim
        </Button>
        <Button onClick={onCancel} autoFocus>
          Não
        </Button>
      </DialogActions>
    </Dialog>
  );
}
