// 'Minha conta' (issue 42), for everyone signed in, in the technician's app (/conta) and the back office
// (/backoffice/conta): 'Verificação em duas etapas', turned on with the QR code (or the secret typed in) and a
// first code, which gives the ten recovery codes; turned off with a code, unless the role requires it.
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { Alert, Button, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import { SEGUNDO_FATOR_TEXTS } from '@novus/domain/auth';
import {
  segundoFatorConfirmar,
  segundoFatorDesativar,
  segundoFatorEstado,
  segundoFatorIniciar,
} from '@novus/domain/api/segundo-fator';
import { ApiError } from '../api/client';
import { CodigosRecuperacao, type NovoSegredo, SegredoNovo } from '../login/SegundaEtapa';
import { useSession, useShell } from '../shared/services';

interface Estado {
  ativo: boolean;
  exigido: boolean;
  codigosRestantes: number;
}

const messageOf = (error: unknown) =>
  error instanceof ApiError && error.serverMessage
    ? error.serverMessage
    : 'Não foi possível falar com o servidor. Verifique a conexão e tente novamente.';

/** A 'Código de verificação' field and its button, in a form of its own. */
function CodigoForm({
  action,
  busy,
  onSubmit,
}: {
  action: string;
  busy: boolean;
  onSubmit: (codigo: string) => void;
}) {
  const id = useId();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit(String(new FormData(event.currentTarget).get('codigo') ?? '').trim());
  };
  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate>
      <TextField
        id={id}
        name="codigo"
        label={SEGUNDO_FATOR_TEXTS.codigo}
        autoComplete="one-time-code"
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        required
      />
      <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
        {action}
      </Button>
    </Stack>
  );
}

export function ContaPage() {
  const { api } = useShell();
  const session = useSession();
  const [estado, setEstado] = useState<Estado | null>(null);
  const [novo, setNovo] = useState<NovoSegredo | null>(null);
  const [codigos, setCodigos] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const load = useCallback(() => {
    api.call(segundoFatorEstado, {}).then(setEstado, (error: unknown) => setFailure(messageOf(error)));
  }, [api]);
  useEffect(load, [load]);

  /** One call at a time, its failure said on the screen. */
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setFailure(null);
    setNotice(null);
    try {
      await work();
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  const iniciar = () =>
    run(async () => {
      setCodigos(null);
      setNovo(await api.call(segundoFatorIniciar, {}));
    });
  const confirmar = (codigo: string) =>
    run(async () => {
      const answer = await api.call(segundoFatorConfirmar, { body: { codigo } });
      setNovo(null);
      setCodigos(answer.codigosRecuperacao);
      setNotice('Verificação em duas etapas ligada.');
      load();
    });
  const desativar = (codigo: string) =>
    run(async () => {
      await api.call(segundoFatorDesativar, { body: { codigo } });
      setCodigos(null);
      setNotice('Verificação em duas etapas desligada.');
      load();
    });

  return (
    <Stack spacing={2} sx={{ maxWidth: 560 }}>
      <Typography component="h1" variant="h5">
        Minha conta
      </Typography>
      <Typography>{session?.nome}</Typography>
      <Typography component="h2" variant="h6">
        {SEGUNDO_FATOR_TEXTS.title}
      </Typography>
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      {notice && <Alert severity="success">{notice}</Alert>}
      {codigos && <CodigosRecuperacao codigos={codigos} />}
      {estado === null && !failure && <CircularProgress aria-label="Carregando" />}
      {estado && !estado.ativo && !novo && (
        <>
          <Typography>
            {estado.exigido
              ? 'A verificação em duas etapas é obrigatória para o seu perfil.'
              : 'Além da senha, peça um código do aplicativo autenticador do seu celular a cada login.'}
          </Typography>
          <Button
            variant="contained"
            onClick={() => void iniciar()}
            disabled={busy}
            sx={{ alignSelf: 'flex-start' }}
          >
            Ligar verificação em duas etapas
          </Button>
        </>
      )}
      {novo && (
        <>
          <Typography>
            Leia o QR code com um aplicativo autenticador (Google Authenticator, Microsoft Authenticator,
            FreeOTP) e informe o código que ele mostrar.
          </Typography>
          <SegredoNovo novo={novo} />
          <CodigoForm action="Confirmar" busy={busy} onSubmit={(codigo) => void confirmar(codigo)} />
        </>
      )}
      {estado?.ativo && (
        <>
          <Alert severity="success">
            Ligada. Códigos de recuperação restantes: {estado.codigosRestantes}.
          </Alert>
          {estado.exigido ? (
            <Typography>A verificação em duas etapas é obrigatória para o seu perfil.</Typography>
          ) : (
            <>
              <Typography>Para desligar, informe um código do aplicativo.</Typography>
              <CodigoForm action="Desligar" busy={busy} onSubmit={(codigo) => void desativar(codigo)} />
            </>
          )}
        </>
      )}
    </Stack>
  );
}
