// One page of the review list: each record's flow, technician, date and time, flags and state; a click (or its
// button) opens it beside the list.
import {
  Box,
  Button,
  Chip,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { ItemRevisao } from '@novus/domain/api/revisao';
import { FLOW_BY_KEY } from '@novus/domain/flows/registry';
import { FlagChip } from './FlagChip';
import { dataHoraTexto, ESTADO_COLOR, estadoTexto, paginas, paginaTexto } from './revisao-view';

interface Props {
  registros: readonly ItemRevisao[];
  selecionado: string | null;
  onSelect: (id: string) => void;
  pagina: number;
  total: number;
  porPagina: number;
  onPagina: (pagina: number) => void;
}

export function RevisaoTable({
  registros,
  selecionado,
  onSelect,
  pagina,
  total,
  porPagina,
  onPagina,
}: Props) {
  const ultima = paginas(total, porPagina);
  return (
    <Stack spacing={1}>
      <Table size="small" aria-label="Registros para revisão" sx={{ tableLayout: 'fixed' }}>
        <TableHead>
          <TableRow>
            <TableCell>Registro e sinalizações</TableCell>
            <TableCell sx={{ width: 120 }}>Estado</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {registros.map((registro) => {
            const atual = registro.id === selecionado;
            return (
              <TableRow
                key={registro.id}
                hover
                selected={atual}
                aria-selected={atual}
                data-registro={registro.id}
                onClick={() => onSelect(registro.id)}
                sx={{ cursor: 'pointer', verticalAlign: 'top' }}
              >
                <TableCell>
                  <Link
                    component="button"
                    type="button"
                    variant="body2"
                    onClick={(event) => {
                      event.stopPropagation();
                      onSelect(registro.id);
                    }}
                    sx={{ fontWeight: 600, textAlign: 'left' }}
                  >
                    {FLOW_BY_KEY[registro.fluxo].labels.record}
                  </Link>
                  <Typography variant="body2" color="text.secondary">
                    {registro.tecnico?.nome ?? '—'} · {dataHoraTexto(registro.dataHora)}
                  </Typography>
                  {registro.flags.length > 0 && (
                    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.5 }}>
                      {registro.flags.map((flag) => (
                        <FlagChip key={flag.codigo} flag={flag} />
                      ))}
                    </Box>
                  )}
                </TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={ESTADO_COLOR[registro.revisao.estado]}
                    label={estadoTexto(registro.revisao.estado)}
                  />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <Stack
        direction="row"
        spacing={2}
        component="nav"
        aria-label="Páginas"
        sx={{ alignItems: 'center', justifyContent: 'flex-end' }}
      >
        <Typography variant="body2">
          {total === 1 ? '1 registro' : `${total} registros`} · {paginaTexto(pagina, total, porPagina)}
        </Typography>
        <Button size="small" variant="outlined" disabled={pagina <= 1} onClick={() => onPagina(pagina - 1)}>
          Anterior
        </Button>
        <Button
          size="small"
          variant="outlined"
          disabled={pagina >= ultima}
          onClick={() => onPagina(pagina + 1)}
        >
          Próxima
        </Button>
      </Stack>
    </Stack>
  );
}
