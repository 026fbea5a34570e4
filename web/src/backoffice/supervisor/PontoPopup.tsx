// The content of a point's popup: its record, fetched when the popup opens (GET /api/registro/{id}), its review
// state (from the point's STATUS bits) and, for a flagged point, its flags (the record's, issue 24): one request,
// so the popup grows once.
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Box, CircularProgress, Link, Typography } from '@mui/material';
import { getRegistro } from '@novus/domain/api/registros';
import { STATUS } from '@novus/domain/mapa/api';
import { ESTADO_LABELS, type Flag } from '@novus/domain/revisao';
import type { Fluxo } from '@novus/domain/flows/keys';
import { FLOW_BY_KEY } from '@novus/domain/flows/registry';
import { useBackofficeApi } from '../backoffice-api';
import { serverMessageOr } from '../server-message';
import { flagTexto } from '../revisao/revisao-view';
import { estadoDeStatus } from './layers';
import { SUPERVISOR_FAILURE, SUPERVISOR_TEXT } from './messages';
import { fotosPath, popupCampos, popupColetas, type Registro } from './popup-content';

interface Props {
  fluxo: Fluxo;
  id: string;
  /** The point's STATUS bits. */
  status: number;
  /** The content changed size: Leaflet must place the popup again. */
  onResize: () => void;
}

type State =
  { status: 'loading' } | { status: 'done'; registro: Registro } | { status: 'failed'; message: string };

export function PontoPopup({ fluxo, id, status, onResize }: Props) {
  const { api, log } = useBackofficeApi();
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    let active = true;
    api.call(getRegistro, { params: { id } }).then(
      (registro) => active && setState({ status: 'done', registro }),
      (error: unknown) => {
        if (!active) return;
        log(SUPERVISOR_FAILURE.registro.log, error);
        setState({ status: 'failed', message: serverMessageOr(error, SUPERVISOR_FAILURE.registro.text) });
      },
    );
    return () => {
      active = false;
    };
  }, [api, log, id]);

  useEffect(() => {
    onResize();
  }, [state, onResize]);

  return (
    <Box sx={{ minWidth: 200 }} data-testid="supervisor-popup">
      <Typography component="p" variant="subtitle2" sx={{ mb: 0.5 }}>
        {FLOW_BY_KEY[fluxo].labels.record}
      </Typography>
      {state.status === 'loading' && <CircularProgress size={20} aria-label="Carregando registro" />}
      {state.status === 'failed' && (
        <Typography role="alert" variant="body2" color="error">
          {state.message}
        </Typography>
      )}
      {state.status === 'done' && <RegistroShow fluxo={fluxo} id={id} registro={state.registro} />}
      <Revisao status={status} flags={state.status === 'done' ? (state.registro.flags ?? []) : []} />
    </Box>
  );
}

function RegistroShow({ fluxo, id, registro }: { fluxo: Fluxo; id: string; registro: Registro }) {
  return (
    <>
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1 }}>
        {popupCampos(fluxo, registro).map((campo) => (
          <Box key={campo.label} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" sx={{ fontWeight: 600 }}>
              {campo.label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
              {campo.value}
            </Typography>
          </Box>
        ))}
      </Box>
      {registro.conflito === true && (
        <Box sx={{ mt: 1 }}>
          <Typography component="p" variant="body2" sx={{ fontWeight: 600 }}>
            {SUPERVISOR_TEXT.conflito}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {popupColetas(registro).map((coleta) => (
              <Typography component="li" variant="body2" key={coleta.key}>
                {coleta.tecnico} · {coleta.dataHora}
              </Typography>
            ))}
          </Box>
        </Box>
      )}
      <Link
        component={RouterLink}
        to={fotosPath(fluxo, id)}
        variant="body2"
        sx={{ display: 'inline-block', mt: 1 }}
      >
        Fotos
      </Link>
    </>
  );
}

/** 'Revisão: Pendente' and, when the point is flagged, its flags as the review screen words them. */
function Revisao({ status, flags }: { status: number; flags: readonly Flag[] }) {
  const sinalizado = (status & STATUS.sinalizado) !== 0;
  const textos = flags.map(flagTexto);
  return (
    <Box sx={{ mt: 1 }} data-testid="supervisor-popup-revisao">
      <Typography component="p" variant="body2">
        <Box component="span" sx={{ fontWeight: 600 }}>
          Revisão:
        </Box>{' '}
        {ESTADO_LABELS[estadoDeStatus(status)]}
      </Typography>
      {sinalizado && (
        <>
          <Typography component="p" variant="body2" sx={{ fontWeight: 600 }}>
            Sinalizado
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {textos.map((texto) => (
              <Typography component="li" variant="body2" key={texto}>
                {texto}
              </Typography>
            ))}
          </Box>
        </>
      )}
    </Box>
  );
}
