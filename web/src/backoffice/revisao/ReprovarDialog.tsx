// 'Reprovar': the reason (required) and, per field of the record the reviewer ticks, what is wrong with it.
import { useState } from 'react';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { REVISAO_TEXT } from './messages';
import { aprovarTodosTexto, type CampoRegistro } from './revisao-view';

export interface Reprovacao {
  comentario: string;
  campos: Record<string, string>;
}

interface Props {
  open: boolean;
  campos: readonly CampoRegistro[];
  busy: boolean;
  onCancel: () => void;
  onConfirm: (reprovacao: Reprovacao) => void;
}

/** The form's checks: a reason, and a word on each ticked field; the errors by field ('' for the reason). */
export function reprovacaoErros(
  comentario: string,
  marcados: Readonly<Record<string, string>>,
): Record<string, string> {
  const erros: Record<string, string> = {};
  if (comentario.trim() === '') erros[''] = REVISAO_TEXT.comentarioObrigatorio;
  for (const [campo, texto] of Object.entries(marcados)) {
    if (texto.trim() === '') erros[campo] = REVISAO_TEXT.campoObrigatorio;
  }
  return erros;
}

function semErro(erros: Record<string, string>, campo: string): Record<string, string> {
  const { [campo]: _removido, ...resto } = erros;
  return resto;
}

export function ReprovarDialog({ open, campos, busy, onCancel, onConfirm }: Props) {
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onCancel}
      fullWidth
      maxWidth="sm"
      aria-labelledby="reprovar-titulo"
    >
      {/* mounted per opening: a new record starts with an empty form */}
      {open && <ReprovarForm campos={campos} busy={busy} onCancel={onCancel} onConfirm={onConfirm} />}
    </Dialog>
  );
}

function ReprovarForm({ campos, busy, onCancel, onConfirm }: Omit<Props, 'open'>) {
  const [comentario, setComentario] = useState('');
  /** Ticked fields and what the reviewer wrote about each. */
  const [marcados, setMarcados] = useState<Record<string, string>>({});
  const [erros, setErros] = useState<Record<string, string>>({});

  const submit = () => {
    const found = reprovacaoErros(comentario, marcados);
    setErros(found);
    if (Object.keys(found).length > 0) return;
    onConfirm({
      comentario: comentario.trim(),
      campos: Object.fromEntries(Object.entries(marcados).map(([campo, texto]) => [campo, texto.trim()])),
    });
  };

  return (
    <>
      <DialogTitle id="reprovar-titulo">Reprovar registro</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            id="reprovar-comentario"
            label="Comentário"
            required
            multiline
            minRows={3}
            value={comentario}
            onChange={(event) => {
              setComentario(event.target.value);
              if (erros[''] !== undefined && event.target.value.trim() !== '') setErros(semErro(erros, ''));
            }}
            error={erros[''] !== undefined}
            helperText={erros[''] ?? 'O técnico lê este comentário no aparelho.'}
            autoFocus
          />
          <Typography component="h3" variant="subtitle2">
            Campos com problema
          </Typography>
          <Stack spacing={1}>
            {campos.map((campo) => {
              const marcado = campo.nome in marcados;
              return (
                <Stack key={campo.nome} spacing={0.5}>
                  <FormControlLabel
                    control={
                      <Checkbox
                        checked={marcado}
                        onChange={(event) =>
                          setMarcados((current) => {
                            const next = { ...current };
                            if (event.target.checked) next[campo.nome] = '';
                            else delete next[campo.nome];
                            return next;
                          })
                        }
                      />
                    }
                    label={`${campo.label}: ${campo.valor}`}
                  />
                  {marcado && (
                    <TextField
                      id={`reprovar-campo-${campo.nome}`}
                      label={`O que está errado em ${campo.label}`}
                      size="small"
                      value={marcados[campo.nome] ?? ''}
                      onChange={(event) => {
                        const texto = event.target.value;
                        setMarcados((current) => ({ ...current, [campo.nome]: texto }));
                        if (erros[campo.nome] !== undefined && texto.trim() !== '')
                          setErros(semErro(erros, campo.nome));
                      }}
                      error={erros[campo.nome] !== undefined}
                      helperText={erros[campo.nome]}
                      sx={{ ml: 4 }}
                    />
                  )}
                </Stack>
              );
            })}
          </Stack>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          Cancelar
        </Button>
        <Button color="error" variant="contained" onClick={submit} disabled={busy}>
          Reprovar
        </Button>
      </DialogActions>
    </>
  );
}

interface AprovarTodosProps {
  open: boolean;
  total: number;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/** 'Aprovar todos': says how many the filter shows before approving them. */
export function AprovarTodosDialog({ open, total, busy, onCancel, onConfirm }: AprovarTodosProps) {
  return (
    <Dialog open={open} onClose={busy ? undefined : onCancel} aria-labelledby="aprovar-todos-titulo">
      <DialogTitle id="aprovar-todos-titulo">{aprovarTodosTexto(total)}</DialogTitle>
      <DialogContent>
        <Typography>
          Todos os registros que os filtros mostram e ainda não estão aprovados serão aprovados.
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          Cancelar
        </Button>
        <Button variant="contained" onClick={onConfirm} disabled={busy}>
          Aprovar
        </Button>
      </DialogActions>
    </Dialog>
  );
}
