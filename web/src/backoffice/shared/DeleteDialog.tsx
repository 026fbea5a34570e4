// 'Tem certeza?' with Sim/Não, shared by every back-office list (SPEC.md section 2).
import { useId } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';

interface Props {
  open: boolean;
  /** 'Isso irá remover o cliente', '… o projeto', '… o usuário'. */
  text: string;
  onConfirm: () => void;
  onCancel: () => void;
}

export function DeleteDialog({ open, text, onConfirm, onCancel }: Props) {
  const id = useId();
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`}>
      <DialogTitle id={`${id}-title`}>Tem certeza?</DialogTitle>
      <DialogContent>
        <DialogContentText id={`${id}-text`}>{text}</DialogContentText>
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
