// Records per day, stacked by technician: an inline SVG (no chart library), named for assistive technology;
// the table beside it holds the same numbers for those who cannot see the bars.
import { useId } from 'react';
import { Box, Stack, Typography } from '@mui/material';
import type { Produtividade } from '@novus/domain/export/api';
import { formatDia, formatNumero } from '../extrator/datas';
import { produtividadeSeries } from './relatorio-view';

/** Tableau 10: distinguishable for most colour vision; technicians beyond ten reuse a colour. */
const CORES = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
];
const TEXTO = 'rgba(0, 0, 0, 0.87)';

const ALTURA = 160;
const TOPO = 12;
const ESQUERDA = 44;
const BASE = 28;
/** Width of a day's slot: narrower for long ranges, so the chart stays small. */
const slotFor = (dias: number) => Math.min(36, Math.max(10, 720 / Math.max(dias, 1)));

const corDe = (i: number) => CORES[i % CORES.length];

export function ProdutividadeChart({ rows }: { rows: readonly Produtividade[] }) {
  const titleId = useId();
  const { dias, series, maximo } = produtividadeSeries(rows);
  if (dias.length === 0) return null;

  const slot = slotFor(dias.length);
  const barra = slot * 0.7;
  const rotuloCada = Math.ceil(36 / slot);
  const largura = ESQUERDA + dias.length * slot + 8;
  // The axis goes up to a round number of records so its three marks are evenly spaced (0, 3, 6 for a top of 5).
  const topo = maximo > 0 ? Math.ceil(maximo / 2) * 2 : 0;
  const escala = topo > 0 ? ALTURA / topo : 0;
  const marcas = topo > 0 ? [0, topo / 2, topo] : [0];
  const titulo = `Registros por dia e por técnico, de ${formatDia(dias[0])} a ${formatDia(dias[dias.length - 1])}`;

  return (
    <Stack spacing={1}>
      <Box sx={{ overflowX: 'auto' }}>
        <svg
          role="img"
          aria-labelledby={titleId}
          width={largura}
          height={TOPO + ALTURA + BASE}
          viewBox={`0 0 ${largura} ${TOPO + ALTURA + BASE}`}
        >
          <title id={titleId}>{titulo}</title>
          {marcas.map((marca) => {
            const y = TOPO + ALTURA - marca * escala;
            return (
              <g key={marca}>
                <line x1={ESQUERDA} x2={largura} y1={y} y2={y} stroke="#e0e0e0" />
                <text x={ESQUERDA - 6} y={y + 4} textAnchor="end" fontSize={11} fill={TEXTO}>
                  {formatNumero(marca)}
                </text>
              </g>
            );
          })}
          {dias.map((dia, i) => {
            const x = ESQUERDA + i * slot + (slot - barra) / 2;
            let topo = TOPO + ALTURA;
            return (
              <g key={dia}>
                {series.map((serie, s) => {
                  const valor = serie.valores[i];
                  if (valor === 0) return null;
                  const altura = valor * escala;
                  topo -= altura;
                  return (
                    <rect key={serie.tecnico.id} x={x} y={topo} width={barra} height={altura} fill={corDe(s)}>
                      <title>{`${serie.tecnico.nome}, ${formatDia(dia)}: ${formatNumero(valor)}`}</title>
                    </rect>
                  );
                })}
                {i % rotuloCada === 0 && (
                  <text
                    x={x + barra / 2}
                    y={TOPO + ALTURA + 16}
                    textAnchor="middle"
                    fontSize={11}
                    fill={TEXTO}
                  >
                    {formatDia(dia).slice(0, 5)}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      </Box>
      <Stack
        component="ul"
        aria-label="Legenda"
        direction="row"
        useFlexGap
        spacing={2}
        sx={{ flexWrap: 'wrap', listStyle: 'none', m: 0, p: 0 }}
      >
        {series.map((serie, s) => (
          <Stack
            key={serie.tecnico.id}
            component="li"
            direction="row"
            spacing={1}
            sx={{ alignItems: 'center' }}
          >
            <Box aria-hidden sx={{ width: 12, height: 12, bgcolor: corDe(s), borderRadius: 0.5 }} />
            <Typography variant="body2">{serie.tecnico.nome}</Typography>
          </Stack>
        ))}
      </Stack>
    </Stack>
  );
}
