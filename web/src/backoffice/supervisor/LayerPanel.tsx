// The supervisor map's side panel: 'Clusterizar', 'Colorir por revisão' and 'Somente sinalizados' (issue 24), the
// 'Camadas' to show (each with its colour) and the project's 'Estatística' (SPEC.md section 2 'Supervisor').
import { useId } from 'react';
import {
  Box,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormLabel,
  Paper,
  Stack,
} from '@mui/material';
import type { Fluxo } from '@novus/domain/flows/keys';
import type { EstatisticaItem } from '@novus/domain/mapa/api';
import { EstatisticaTable } from './EstatisticaTable';
import { FLOW_BY_KEY } from '@novus/domain/flows/registry';
import { ESTADO_LABELS, ESTADOS_REVISAO } from '@novus/domain/revisao';
import { listedLayers, REVISAO_CORES } from './layers';
import type { Reload } from './use-reload';

interface Props {
  clusterizar: boolean;
  onClusterizar: (checked: boolean) => void;
  colorirRevisao: boolean;
  onColorirRevisao: (checked: boolean) => void;
  somenteSinalizados: boolean;
  onSomenteSinalizados: (checked: boolean) => void;
  visible: Readonly<Record<Fluxo, boolean>>;
  onVisible: (fluxo: Fluxo, checked: boolean) => void;
  /** Points per layer: layers beyond the spec's five are listed only when they have some. */
  counts: Readonly<Record<Fluxo, number>>;
  estatistica: Reload<EstatisticaItem[]>;
}

export function LayerPanel({
  clusterizar,
  onClusterizar,
  colorirRevisao,
  onColorirRevisao,
  somenteSinalizados,
  onSomenteSinalizados,
  visible,
  onVisible,
  counts,
  estatistica,
}: Props) {
  const camadasId = useId();
  return (
    <Paper
      component="aside"
      aria-label="Camadas e estatística"
      variant="outlined"
      sx={{ p: 2, width: { xs: '100%', md: 300 }, flexShrink: 0, alignSelf: 'flex-start' }}
    >
      <Stack spacing={2}>
        <FormControlLabel
          control={
            <Checkbox checked={clusterizar} onChange={(event) => onClusterizar(event.target.checked)} />
          }
          label="Clusterizar"
        />
        <FormGroup>
          <FormControlLabel
            control={
              <Checkbox
                checked={colorirRevisao}
                onChange={(event) => onColorirRevisao(event.target.checked)}
              />
            }
            label="Colorir por revisão"
          />
          {colorirRevisao && (
            <Box
              component="ul"
              aria-label="Cores da revisão"
              sx={{ m: 0, mb: 1, pl: 4, listStyle: 'none', display: 'flex', gap: 1.5, flexWrap: 'wrap' }}
            >
              {ESTADOS_REVISAO.map((estado) => (
                <Box
                  component="li"
                  key={estado}
                  sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, fontSize: 14 }}
                >
                  <Swatch color={REVISAO_CORES[estado]} hollow={false} />
                  {ESTADO_LABELS[estado]}
                </Box>
              ))}
            </Box>
          )}
          <FormControlLabel
            control={
              <Checkbox
                checked={somenteSinalizados}
                onChange={(event) => onSomenteSinalizados(event.target.checked)}
              />
            }
            label="Somente sinalizados"
          />
        </FormGroup>
        <FormControl component="fieldset">
          <FormLabel component="legend" id={camadasId}>
            Camadas
          </FormLabel>
          <FormGroup aria-labelledby={camadasId}>
            {listedLayers(counts).map((fluxo) => (
              <FormControlLabel
                key={fluxo}
                control={
                  <Checkbox
                    checked={visible[fluxo]}
                    onChange={(event) => onVisible(fluxo, event.target.checked)}
                  />
                }
                label={
                  <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
                    <LayerSwatch fluxo={fluxo} />
                    {FLOW_BY_KEY[fluxo].map.layer}
                  </Box>
                }
              />
            ))}
          </FormGroup>
        </FormControl>
        <EstatisticaTable estatistica={estatistica} />
      </Stack>
    </Paper>
  );
}

/** The layer's icon: a disc of the colour its points are drawn in (hollow layers show a ring). */
function LayerSwatch({ fluxo }: { fluxo: Fluxo }) {
  const { color, hollowUntilCollected } = FLOW_BY_KEY[fluxo].map;
  return <Swatch color={color} hollow={hollowUntilCollected} />;
}

function Swatch({ color, hollow }: { color: string; hollow: boolean }) {
  return (
    <Box
      component="span"
      aria-hidden="true"
      sx={{
        width: 14,
        height: 14,
        borderRadius: '50%',
        boxSizing: 'border-box',
        border: `3px solid ${color}`,
        background: hollow ? `radial-gradient(circle, ${color} 35%, transparent 40%)` : color,
        flexShrink: 0,
      }}
    />
  );
}
