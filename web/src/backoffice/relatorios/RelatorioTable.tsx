// One row per technician of the chosen day: records per flow, total, and that technician's CSV, KML, GeoPackage
// and XLSX.
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
import { arquivoDoDia, type RelatorioTecnico } from '@novus/domain/export/api';
import { FLOW_BY_KEY } from '@novus/domain/flows/registry';
import { formatDia, formatNumero } from '../extrator/datas';
import { fluxosComContagem } from './relatorio-view';

/** A technician's files of the day, in the order of the Extrator's sections. */
function arquivosDe(row: RelatorioTecnico): { formato: string; url: string }[] {
  return [
    { formato: 'CSV', url: row.csv },
    { formato: 'KML', url: row.kml },
    { formato: 'GeoPackage', url: arquivoDoDia(row.csv, 'gpkg') },
    { formato: 'XLSX', url: arquivoDoDia(row.csv, 'xlsx') },
  ];
}

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
                <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap' }}>
                  {arquivosDe(row).map(({ formato, url }) => (
                    <Button
                      key={formato}
                      component="a"
                      href={url}
                      download
                      size="small"
                      variant="outlined"
                      aria-label={`${formato} de ${row.tecnico.nome}`}
                    >
                      {formato}
                    </Button>
                  ))}
                </Stack>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
