// 'Estatística': records per flow of the project under the filters, as the server counts them (id and count,
// with the flow's name beside the id).
import { useId } from 'react';
import {
  Alert,
  LinearProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { isFluxo } from '@novus/domain/flows/keys';
import { FLOW_BY_KEY } from '@novus/domain/flows/registry';
import type { EstatisticaItem } from '@novus/domain/mapa/api';
import { SUPERVISOR_TEXT } from './messages';
import type { Reload } from './use-reload';

export function estatisticaLabel(id: string): string {
  return isFluxo(id) ? FLOW_BY_KEY[id].labels.menu : id;
}

export function EstatisticaTable({ estatistica }: { estatistica: Reload<EstatisticaItem[]> }) {
  const headingId = useId();
  const { value, loading, error } = estatistica;
  return (
    <Stack component="section" aria-labelledby={headingId} spacing={1}>
      <Typography id={headingId} component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
        Estatística
      </Typography>
      {loading && <LinearProgress aria-label="Carregando estatística" />}
      {error !== null && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      {value !== null && value.length === 0 && (
        <Typography variant="body2">{SUPERVISOR_TEXT.noEstatistica}</Typography>
      )}
      {value !== null && value.length > 0 && (
        <Table size="small" aria-labelledby={headingId}>
          <TableHead>
            <TableRow>
              <TableCell component="th" scope="col">
                Id
              </TableCell>
              <TableCell component="th" scope="col">
                Fluxo
              </TableCell>
              <TableCell component="th" scope="col" align="right">
                Total
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {value.map((item) => (
              <TableRow key={item._id}>
                <TableCell>{item._id}</TableCell>
                <TableCell>{estatisticaLabel(item._id)}</TableCell>
                <TableCell align="right">{item.count}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Stack>
  );
}
