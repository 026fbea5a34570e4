// The supervisor map's side panel: 'Clusterizar', the 'Camadas' to show (each with its colour) and the
// project's 'Estatística' (SPEC.md section 2 'Supervisor').
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
import { listedLayers } from './layers';
import type { Reload } from './use-reload';

interface Props {
  clusterizar: boolean;
  onClusterizar: (checked: boolean) => void;
  visible: Readonly<Record<Fluxo, boolean>>;
  onVisible: (fluxo: Fluxo, checked: boolean) => void;
  /** Points per layer: layers beyond the spec's five are listed only when they have some. */
  counts: Readonly<Record<Fluxo, number>>;
  estatistica: Reload<EstatisticaItem[]>;
}

export function LayerPanel({ clusterizar, onClusterizar, visible, onVisible, counts, estatistica }: Props) {
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
        background: hollowUntilCollected ? `radial-gradient(circle, ${color} 35%, transparent 40%)` : color,
        flexShrink: 0,
      }}
    />
  );
}
