// 'Auditoria' (administrador): every back-office write, newest first, filtered by user and by a range of days.
import { useState } from 'react';
import { Alert, Button, MenuItem, Paper, Stack, TablePagination, TextField, Typography } from '@mui/material';
import { LOG_SUFFIX } from '@novus/domain/messages';
import { listAuditoria } from '@novus/domain/api/auditoria';
import { listUsuarios } from '@novus/domain/api/usuarios';
import { LoadContent } from '../extrator/LoadContent';
import { useApiLoad } from '../extrator/use-api-load';
import { USUARIO_TEXT } from '../usuarios/messages';
import { AuditoriaTable } from './AuditoriaTable';

export const AUDITORIA_TEXT = {
  empty: 'Nenhuma alteração registrada para esses filtros.',
  badPeriod: 'A data inicial deve ser anterior ou igual à data final.',
  loadFailed: { log: 'Falha ao carregar auditoria', text: `Falha ao carregar auditoria.${LOG_SUFFIX}` },
} as const;

/** The screen's filters, as its fields hold them; '' leaves one out (the server reads '' as no filter). */
interface FiltroAuditoria {
  /** A user's id; '' for everyone. */
  usuario: string;
  /** YYYY-MM-DD or '' (no bound). */
  inicio: string;
  fim: string;
  pagina: number;
  tamanho: number;
}

const PAGE_SIZES = [25, 50, 100];
const SEM_FILTRO: FiltroAuditoria = {
  usuario: '',
  inicio: '',
  fim: '',
  pagina: 0,
  tamanho: PAGE_SIZES[0] ?? 25,
};

export function AuditoriaPage() {
  const [filtro, setFiltro] = useState<FiltroAuditoria>(SEM_FILTRO);
  // A new filter starts again at the first page.
  const filtrar = (change: Partial<FiltroAuditoria>) =>
    setFiltro((atual) => ({ ...atual, pagina: 0, ...change }));
  const periodoInvalido = filtro.inicio !== '' && filtro.fim !== '' && filtro.inicio > filtro.fim;

  const usuarios = useApiLoad('usuarios', (api) => api.call(listUsuarios, {}), {
    log: 'Falha ao carregar usuários',
    text: USUARIO_TEXT.loadListFailed,
  });
  const pagina = useApiLoad(
    periodoInvalido ? null : JSON.stringify(filtro),
    (api) => api.call(listAuditoria, { query: filtro }),
    AUDITORIA_TEXT.loadFailed,
  );
  const filtrado = filtro.usuario !== '' || filtro.inicio !== '' || filtro.fim !== '';

  return (
    <Stack spacing={2}>
      <Typography component="h1" variant="h5">
        Auditoria
      </Typography>
      <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Filtros">
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
          <TextField
            select
            id="auditoria-usuario"
            label="Usuário"
            value={filtro.usuario}
            onChange={(event) => filtrar({ usuario: event.target.value })}
            // 'Todos' (the empty value) is shown as a choice, under a raised label
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            sx={{ minWidth: 260 }}
          >
            <MenuItem value="">Todos</MenuItem>
            {(usuarios.status === 'done' ? usuarios.value : []).map((usuario) => (
              <MenuItem key={usuario._id} value={usuario._id}>
                {`${usuario.firstName} ${usuario.lastName}`.trim()} ({usuario.login})
              </MenuItem>
            ))}
          </TextField>
          <TextField
            id="auditoria-inicio"
            type="date"
            label="Data inicial"
            value={filtro.inicio}
            onChange={(event) => filtrar({ inicio: event.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            id="auditoria-fim"
            type="date"
            label="Data final"
            value={filtro.fim}
            onChange={(event) => filtrar({ fim: event.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <Button
            variant="outlined"
            disabled={!filtrado}
            onClick={() => setFiltro({ ...SEM_FILTRO, tamanho: filtro.tamanho })}
          >
            Limpar filtros
          </Button>
        </Stack>
      </Paper>
      {usuarios.status === 'failed' && <Alert severity="warning">{usuarios.message}</Alert>}
      {periodoInvalido ? (
        <Alert severity="warning">{AUDITORIA_TEXT.badPeriod}</Alert>
      ) : (
        <LoadContent load={pagina} loadingLabel="Carregando auditoria">
          {(value) =>
            value.total === 0 ? (
              <Alert severity="info">{AUDITORIA_TEXT.empty}</Alert>
            ) : (
              <Paper variant="outlined">
                <AuditoriaTable entradas={value.entradas} />
                <TablePagination
                  component="div"
                  count={value.total}
                  page={value.pagina}
                  rowsPerPage={value.tamanho}
                  rowsPerPageOptions={PAGE_SIZES}
                  onPageChange={(_event, page) => setFiltro((atual) => ({ ...atual, pagina: page }))}
                  onRowsPerPageChange={(event) => filtrar({ tamanho: Number(event.target.value) })}
                  labelRowsPerPage="Linhas por página:"
                  labelDisplayedRows={({ from, to, count }) => `${from}–${to} de ${count}`}
                  getItemAriaLabel={(type) =>
                    type === 'next'
                      ? 'Próxima página'
                      : type === 'previous'
                        ? 'Página anterior'
                        : type === 'first'
                          ? 'Primeira página'
                          : 'Última página'
                  }
                />
              </Paper>
            )
          }
        </LoadContent>
      )}
    </Stack>
  );
}
