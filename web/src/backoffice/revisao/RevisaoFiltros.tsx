// The review list's filters: Fluxo, Técnico, Data inicial, Data final, Sinalização, Estado; and the counts of the
// project per state and per flag, each a chip that sets its filter.
import { Box, Chip, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import type { Fluxo } from '@novus/domain/flows/keys';
import { FLOW_BY_KEY } from '@novus/domain/flows/registry';
import {
  ESTADO_LABELS,
  ESTADOS_REVISAO,
  FLAG_CODIGOS,
  FLAG_LABELS,
  type EstadoRevisao,
  type FlagCodigo,
} from '@novus/domain/revisao';
import { FLAG_OPTIONS, TODOS, type FiltroFlag, type FiltrosRevisao } from './revisao-view';

interface Props {
  fluxos: readonly Fluxo[];
  tecnicos: readonly { id: string; nome: string }[];
  filtros: FiltrosRevisao;
  onChange: (filtros: FiltrosRevisao) => void;
}

/** A select whose '' is 'Todos' shows it (MUI takes '' for empty otherwise). */
const TODOS_VISIVEL = { select: { displayEmpty: true }, inputLabel: { shrink: true } } as const;

const isFluxoOf = (fluxos: readonly Fluxo[], value: string): value is Fluxo =>
  fluxos.some((f) => f === value);
const isFlag = (value: string): value is FiltroFlag => FLAG_OPTIONS.some((option) => option.value === value);
const isEstado = (value: string): value is EstadoRevisao =>
  ESTADOS_REVISAO.some((estado) => estado === value);

export function RevisaoFiltros({ fluxos, tecnicos, filtros, onChange }: Props) {
  const set = (patch: Partial<FiltrosRevisao>) => onChange({ ...filtros, ...patch });
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: {
            xs: '1fr',
            sm: 'repeat(2, 1fr)',
            lg: 'repeat(3, 1fr)',
            xl: 'repeat(6, 1fr)',
          },
        }}
      >
        <TextField
          select
          id="revisao-fluxo"
          label="Fluxo"
          slotProps={TODOS_VISIVEL}
          value={filtros.fluxo}
          onChange={(event) =>
            set({ fluxo: isFluxoOf(fluxos, event.target.value) ? event.target.value : TODOS })
          }
        >
          <MenuItem value={TODOS}>Todos</MenuItem>
          {fluxos.map((fluxo) => (
            <MenuItem key={fluxo} value={fluxo}>
              {FLOW_BY_KEY[fluxo].labels.record}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          id="revisao-tecnico"
          label="Técnico"
          slotProps={TODOS_VISIVEL}
          value={tecnicos.some((tecnico) => tecnico.id === filtros.tecnico) ? filtros.tecnico : TODOS}
          onChange={(event) => set({ tecnico: event.target.value })}
        >
          <MenuItem value={TODOS}>Todos</MenuItem>
          {tecnicos.map((tecnico) => (
            <MenuItem key={tecnico.id} value={tecnico.id}>
              {tecnico.nome}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          id="revisao-data-inicio"
          type="date"
          label="Data inicial"
          value={filtros.dataInicio}
          onChange={(event) => set({ dataInicio: event.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          id="revisao-data-fim"
          type="date"
          label="Data final"
          value={filtros.dataFim}
          onChange={(event) => set({ dataFim: event.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          select
          id="revisao-flag"
          label="Sinalização"
          slotProps={TODOS_VISIVEL}
          value={filtros.flag}
          onChange={(event) => set({ flag: isFlag(event.target.value) ? event.target.value : TODOS })}
        >
          <MenuItem value={TODOS}>Todas</MenuItem>
          {FLAG_OPTIONS.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          id="revisao-estado"
          label="Estado"
          slotProps={TODOS_VISIVEL}
          value={filtros.estado}
          onChange={(event) => set({ estado: isEstado(event.target.value) ? event.target.value : TODOS })}
        >
          <MenuItem value={TODOS}>Todos</MenuItem>
          {ESTADOS_REVISAO.map((estado) => (
            <MenuItem key={estado} value={estado}>
              {ESTADO_LABELS[estado]}
            </MenuItem>
          ))}
        </TextField>
      </Box>
    </Paper>
  );
}

interface ContagemProps {
  estados: Readonly<Record<EstadoRevisao, number>>;
  flags: Readonly<Record<FlagCodigo, number>>;
  filtros: FiltrosRevisao;
  onChange: (filtros: FiltrosRevisao) => void;
}

/** The project's counts (flow, technician and dates applied): a chip per state and per flag found; a click filters. */
export function RevisaoContagem({ estados, flags, filtros, onChange }: ContagemProps) {
  const sinalizados = FLAG_CODIGOS.filter((codigo) => flags[codigo] > 0);
  return (
    <Stack spacing={1} component="section" aria-label="Contagens">
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <Typography component="span" variant="body2" sx={{ fontWeight: 600, mr: 0.5 }}>
          Estados:
        </Typography>
        {ESTADOS_REVISAO.map((estado) => (
          <Chip
            key={estado}
            label={`${ESTADO_LABELS[estado]}: ${estados[estado]}`}
            color={filtros.estado === estado ? 'primary' : 'default'}
            variant={filtros.estado === estado ? 'filled' : 'outlined'}
            aria-pressed={filtros.estado === estado}
            onClick={() => onChange({ ...filtros, estado: filtros.estado === estado ? TODOS : estado })}
          />
        ))}
      </Stack>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <Typography component="span" variant="body2" sx={{ fontWeight: 600, mr: 0.5 }}>
          Sinalizações:
        </Typography>
        {sinalizados.length === 0 && (
          <Typography component="span" variant="body2">
            nenhuma
          </Typography>
        )}
        {sinalizados.map((codigo) => (
          <Chip
            key={codigo}
            label={`${FLAG_LABELS[codigo]}: ${flags[codigo]}`}
            color={filtros.flag === codigo ? 'primary' : 'default'}
            variant={filtros.flag === codigo ? 'filled' : 'outlined'}
            aria-pressed={filtros.flag === codigo}
            onClick={() => onChange({ ...filtros, flag: filtros.flag === codigo ? TODOS : codigo })}
          />
        ))}
      </Stack>
    </Stack>
  );
}
