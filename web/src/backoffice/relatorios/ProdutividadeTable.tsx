// Productivity per technician per day: records, first and last record, median GPS accuracy, complete photos.
import { Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import type { Produtividade } from '@novus/domain/export/api';
import { formatDia, formatHora, formatNumero } from '../extrator/datas';
import { formatPercent, formatPrecisao } from './relatorio-view';

export function ProdutividadeTable({ rows }: { rows: readonly Produtividade[] }) {
  return (
    <TableContainer>
      <Table size="small" aria-label="Produtividade por técnico e dia">
        <TableHead>
          <TableRow>
            <TableCell>Técnico</TableCell>
            <TableCell>Data</TableCell>
            <TableCell align="right">Registros</TableCell>
            <TableCell align="right">Primeiro</TableCell>
            <TableCell align="right">Último</TableCell>
            <TableCell align="right">Precisão mediana (m)</TableCell>
            <TableCell align="right">Fotos completas</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={`${row.tecnico.id} ${row.data}`}>
              <TableCell component="th" scope="row">
                {row.tecnico.nome}
              </TableCell>
              <TableCell>{formatDia(row.data)}</TableCell>
              <TableCell align="right">{formatNumero(row.total)}</TableCell>
              <TableCell align="right">{formatHora(row.primeiro)}</TableCell>
              <TableCell align="right">{formatHora(row.ultimo)}</TableCell>
              <TableCell align="right">{formatPrecisao(row.precisaoMediana)}</TableCell>
              <TableCell align="right">{formatPercent(row.fotosCompletas)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
