// The login page's parts of the sign-in with the company's account (issue 42), in their own chunk, fetched only
// where they show: the button named by OIDC_NOME (a link to the server's redirect to the provider), the return from
// the provider (the device takes the session the callback opened), and the provider's logout offered after Novus's.
import { useEffect } from 'react';
import { Alert, Button, CircularProgress, Divider } from '@mui/material';
import { OIDC_TEXTS } from '@novus/domain/entrada';
import { useShell } from '../shared/services';
import type { Session } from '../offline/session';

export function ContaEmpresa({ nome, destination }: { nome: string; destination: string }) {
  const query = destination === '/' ? '' : `?target=${encodeURIComponent(destination)}`;
  return (
    <>
      <Divider>{OIDC_TEXTS.ou}</Divider>
      <Button href={`/api/auth/oidc/entrar${query}`} variant="outlined" size="large">
        {nome}
      </Button>
    </>
  );
}

/** Back from the provider with the session's cookie set: GET /api/auth/me, and on into the app. */
export function VoltaDaEmpresa({
  params,
  onSession,
  onFailure,
}: {
  params: URLSearchParams;
  onSession: (session: Session) => void;
  onFailure: (message: string) => void;
}) {
  const { api } = useShell();
  useEffect(() => {
    let live = true;
    import('./empresa')
      .then(({ concluirEntradaEmpresa }) => concluirEntradaEmpresa(api, params, window.localStorage))
      .then((session) => live && onSession(session))
      .catch(() => live && onFailure(OIDC_TEXTS.naoConfirmada));
    return () => {
      live = false;
    };
    // once per return from the provider
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return <CircularProgress aria-label="Entrando" sx={{ alignSelf: 'center' }} />;
}

/** After Novus's logout of a session of the company's account: the provider's own logout, offered once. */
export function SaiuDaEmpresa() {
  return (
    <Alert severity="info">
      {OIDC_TEXTS.saiu}{' '}
      <Button href="/api/auth/oidc/sair" size="small" sx={{ ml: 1 }}>
        {OIDC_TEXTS.sairDoProvedor}
      </Button>
    </Alert>
  );
}
