// One row per technician of the chosen day: records per flow, total, and that technician's CSV and KML.
import {
  Button,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
} from '@mui/material';
import type { RelatorioTecnico } from '@novus/domain/export/api';
import { FLOW_BY_KEY } from '@novus/domain/flows/registry';
import { formatDia, formatNumero } from '../extrator/datas';
import { fluxosComContagem } from './relatorio-view';

interface Props {
  /** YYYY-MM-DD */
  data: string;
  rows: readonly RelatorioTecnico[];
}

export function RelatorioTable({ data, rows }: Props) {
  const fluxos = fluxosComContagem(rows);
  return (
    <TableContainer>
      <Table size="small" aria-label={`Registros por técnico em ${formatDia(data)}`}>
        <TableHead>
          <TableRow>
            <TableCell>Técnico</TableCell>
            {fluxos.map((fluxo) => (
              <TableCell key={fluxo} align="right">
                {FLOW_BY_KEY[fluxo].labels.menu}
              </TableCell>
            ))}
            <TableCell align="right">Total</TableCell>
            <TableCell>Arquivos</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.tecnico.id}>
              <TableCell component="th" scope="row">
                {row.tecnico.nome}
              </TableCell>
              {fluxos.map((fluxo) => (
                <TableCell key={fluxo} align="right">
                  {formatNumero(row.contagens[fluxo] ?? 0)}
                </TableCell>
              ))}
              <TableCell align="right">{formatNumero(row.total)}</TableCell>
              <TableCell>
                <Stack direction="row" spacing={1}>
                  <Button
                    component="a"
                    href={row.csv}
                    download
                    size="small"
                    variant="outlined"
                    aria-label={`CSV de ${row.tecnico.nome}`}
                  >
                    CSV
                  </Button>
                  <Button
                    component="a"
                    href={row.kml}
                    download
                    size="small"
                    variant="outlined"
                    aria-label={`KML de ${row.tecnico.nome}`}
                  >
                    KML
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
