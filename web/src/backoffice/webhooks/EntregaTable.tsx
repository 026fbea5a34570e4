// The delivery log of one webhook: status, when, attempts, the last HTTP status or error, and 'Reenviar'.
import {
  Box,
  Button,
  Chip,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
} from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import type { Entrega, StatusEntrega } from '@novus/domain/api/webhooks';
import { EVENTO_LABEL, formatQuando, STATUS_LABEL } from './messages';

const STATUS_COLOR: Record<StatusEntrega, 'default' | 'success' | 'error'> = {
  pendente: 'default',
  entregue: 'success',
  falhou: 'error',
};

interface Props {
  entregas: readonly Entrega[];
  /** The delivery being queued again, whose button waits. */
  reenviando: string | null;
  onReenviar: (entrega: Entrega) => void;
}

export function EntregaTable({ entregas, reenviando, onReenviar }: Props) {
  return (
    <TableContainer>
      <Table size="small" aria-label="Entregas do webhook">
        <TableHead>
          <TableRow>
            <TableCell>Status</TableCell>
            <TableCell>Evento</TableCell>
            <TableCell>Registro</TableCell>
            <TableCell>Alteração em</TableCell>
            <TableCell align="right">Tentativas</TableCell>
            <TableCell>Última tentativa</TableCell>
            <TableCell>Última resposta</TableCell>
            <TableCell>
              <Box component="span" sx={visuallyHidden}>
                Ações
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {entregas.map((entrega) => (
            <TableRow key={entrega._id} data-testid="entrega">
              <TableCell>
                <Chip
                  size="small"
                  label={STATUS_LABEL[entrega.status]}
                  color={STATUS_COLOR[entrega.status]}
                />
              </TableCell>
              <TableCell>{EVENTO_LABEL[entrega.evento]}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace' }}>{entrega.registro.slice(0, 8)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatQuando(entrega.em)}</TableCell>
              <TableCell align="right">{entrega.tentativas}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatQuando(entrega.ultimaTentativa)}</TableCell>
              <TableCell>
                {entrega.ultimoErro ??
                  (entrega.ultimoStatusHttp === null ? '—' : `HTTP ${entrega.ultimoStatusHttp}`)}
              </TableCell>
              <TableCell>
                <Button
                  size="small"
                  disabled={reenviando === entrega._id}
                  onClick={() => onReenviar(entrega)}
                  aria-label={`Reenviar entrega de ${formatQuando(entrega.em)}`}
                >
                  Reenviar
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
