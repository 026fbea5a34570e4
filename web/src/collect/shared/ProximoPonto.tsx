// The map step's 'Próximo ponto' and 'Buscar ponto' (issue 26): where to walk next, and a point found by its id,
// from the records on the device, so both work offline. See proximo-ponto.ts for the choice.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import NavigationIcon from '@mui/icons-material/Navigation';
import NearMeIcon from '@mui/icons-material/NearMe';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { formatDistancia } from '../../map/field/geodesia';
import type { GeoFix } from '../../map/field/geolocation';
import type { LatLng } from '../../map/field/FieldMap';
import type { LocalZona } from '../../offline/db';
import type { LocalColeta } from '../../offline/records';
import {
  buscaAjuda,
  buscarPontos,
  type CampoBusca,
  CAMPOS_BUSCA,
  escolherProximo,
  pontosAColetar,
  PROXIMO_TEXTS,
  rumoAte,
} from './proximo-ponto';

/** What the map step needs to offer 'Próximo ponto' on a flow. */
export interface ProximoPontoProps {
  flow: FlowDefinition;
  /**
   * The flow's records of the project on the device; null until read: the map draws without them (issue 41), and they
   * are read (`load`) once 'Próximo ponto' is pressed or a search typed.
   */
  records: readonly LocalColeta[] | null;
  load: () => void;
  /** 'Uso Mútuo / IP IP-100 nº 3': how the flow names a record. */
  title: (record: LocalColeta) => string;
  /** Opens the point as a tap on its marker does. */
  open: (record: LocalColeta) => void;
}

const SEM_CAMPOS: readonly CampoBusca[] = [];

interface Props extends ProximoPontoProps {
  zonas: readonly LocalZona[];
  position: GeoFix | null;
  /** The point chosen, or null: the map step centres on it and marks it. */
  alvo: string | null;
  onAlvo: (id: string | null, centre: LatLng | null) => void;
}

export function ProximoPonto({ flow, records, load, title, open, zonas, position, alvo, onAlvo }: Props) {
  const [aviso, setAviso] = useState<string | null>(null);
  const [busca, setBusca] = useState('');
  /** 'Próximo ponto' pressed before the records were read: chosen once they are. */
  const [pedido, setPedido] = useState(false);
  const painel = useRef<HTMLDivElement>(null);
  const candidatos = useMemo(() => (records ? pontosAColetar(records, zonas) : []), [records, zonas]);
  const campos = CAMPOS_BUSCA[flow.key] ?? SEM_CAMPOS;
  const achados = useMemo(
    () => (records ? buscarPontos(records, campos, busca) : []),
    [records, campos, busca],
  );

  // The chosen point stays the target as the technician walks (only distance and direction follow the GPS);
  // once collected it is no longer one, and 'Próximo ponto' picks again.
  const ponto = alvo === null ? undefined : candidatos.find((record) => record.id === alvo);
  const rumo = ponto && position ? rumoAte(position, ponto.coordenadas) : null;

  // A phone shows the map and little below it: the answer scrolls into view, clear of the sticky buttons.
  useEffect(() => {
    if (alvo !== null) painel.current?.scrollIntoView({ block: 'nearest' });
  }, [alvo]);

  const escolher = useCallback(() => {
    if (records === null) {
      setPedido(true);
      load();
      return;
    }
    const proximo = escolherProximo(position, candidatos);
    if (proximo.tipo === 'ponto') {
      setAviso(null);
      onAlvo(proximo.record.id, { ...proximo.record.coordenadas });
    } else {
      setAviso(proximo.tipo === 'semGps' ? PROXIMO_TEXTS.semGps : PROXIMO_TEXTS.nenhum);
      onAlvo(null, null);
    }
  }, [records, load, position, candidatos, onAlvo]);
  // Pressed while the records were being read: the choice is made as they come (after the render: it sets the map's).
  useEffect(() => {
    if (!pedido || records === null) return;
    setPedido(false);
    escolher();
  }, [pedido, records, escolher]);

  return (
    <Stack spacing={1.5} component="section" aria-label={PROXIMO_TEXTS.botao}>
      <Button variant="outlined" startIcon={<NearMeIcon aria-hidden />} onClick={escolher}>
        {PROXIMO_TEXTS.botao}
      </Button>
      {aviso && <Alert severity="info">{aviso}</Alert>}
      {ponto && (
        <Paper
          ref={painel}
          variant="outlined"
          sx={{ p: 1.5, scrollMarginBottom: 128 }}
          data-testid="proximo-ponto"
        >
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
            <Box
              sx={{ display: 'flex', width: 44, height: 44, alignItems: 'center', justifyContent: 'center' }}
              aria-hidden
            >
              {rumo && (
                <NavigationIcon
                  data-testid="proximo-ponto-seta"
                  sx={{
                    fontSize: 40,
                    color: 'primary.main',
                    transform: `rotate(${Math.round(rumo.graus)}deg)`,
                  }}
                />
              )}
            </Box>
            <Box sx={{ minWidth: 0 }}>
              <Typography sx={{ fontWeight: 600 }}>{title(ponto)}</Typography>
              <Typography data-testid="proximo-ponto-rumo">
                {rumo ? `${formatDistancia(rumo.metros)}, direção ${rumo.direcao}` : PROXIMO_TEXTS.semGps}
              </Typography>
            </Box>
          </Stack>
          <Button variant="contained" fullWidth sx={{ mt: 1.5 }} onClick={() => open(ponto)}>
            Abrir ponto
          </Button>
        </Paper>
      )}
      <TextField
        label={PROXIMO_TEXTS.busca}
        type="search"
        value={busca}
        onChange={(event) => {
          setBusca(event.target.value);
          if (records === null) load();
        }}
        helperText={buscaAjuda(campos)}
        autoComplete="off"
      />
      {busca.trim() !== '' &&
        records !== null &&
        (achados.length === 0 ? (
          <Typography variant="body2" role="status">
            {PROXIMO_TEXTS.nadaEncontrado}
          </Typography>
        ) : (
          <List dense aria-label="Pontos encontrados" disablePadding>
            {achados.map((record) => (
              <ListItem key={record.id} disablePadding>
                <ListItemButton onClick={() => open(record)} sx={{ minHeight: 48 }}>
                  <ListItemText
                    primary={title(record)}
                    secondary={
                      record.coletado
                        ? 'Coletado'
                        : position
                          ? `A coletar — ${formatDistancia(rumoAte(position, record.coordenadas).metros)}`
                          : 'A coletar'
                    }
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        ))}
    </Stack>
  );
}
