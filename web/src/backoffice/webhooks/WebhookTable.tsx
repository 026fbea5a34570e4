// A project's webhooks: URL, events, the masked secret, pending and failed deliveries, the last accepted one.
import {
  Box,
  Button,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
} from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import type { Webhook } from '@novus/domain/api/webhooks';
import { EVENTO_LABEL, formatQuando } from './messages';

interface Props {
  webhooks: readonly Webhook[];
  onEntregas: (webhook: Webhook) => void;
  onExcluir: (webhook: Webhook) => void;
}

export function WebhookTable({ webhooks, onEntregas, onExcluir }: Props) {
  return (
    <TableContainer>
      <Table size="small" aria-label="Webhooks do projeto">
        <TableHead>
          <TableRow>
            <TableCell>URL</TableCell>
            <TableCell>Eventos</TableCell>
            <TableCell>Segredo</TableCell>
            <TableCell align="right">Pendentes</TableCell>
            <TableCell align="right">Falhas</TableCell>
            <TableCell>Última entrega</TableCell>
            <TableCell>
              <Box component="span" sx={visuallyHidden}>
                Ações
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {webhooks.map((webhook) => (
            <TableRow key={webhook._id} data-testid="webhook">
              <TableCell sx={{ wordBreak: 'break-all' }}>{webhook.url}</TableCell>
              <TableCell>{webhook.eventos.map((evento) => EVENTO_LABEL[evento]).join(', ')}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace' }}>{webhook.segredo}</TableCell>
              <TableCell align="right">{webhook.pendentes}</TableCell>
              <TableCell align="right">{webhook.falhas}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatQuando(webhook.ultimaEntrega)}</TableCell>
              <TableCell>
                <Stack direction="row" spacing={1}>
                  <Button size="small" variant="outlined" onClick={() => onEntregas(webhook)}>
                    Entregas
                  </Button>
                  <Button size="small" color="error" onClick={() => onExcluir(webhook)}>
                    Excluir
                  </Button>
                </Stack>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
