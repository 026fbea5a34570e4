// The administrador's side of 'Verificação em duas etapas' (issue 42): requiring it of administradores and
// supervisores (on the users' list), and resetting a user's (on their form: a lost phone), which the audit log keeps.
import { useEffect, useState } from 'react';
import { Alert, Button, FormControlLabel, Stack, Switch, Typography } from '@mui/material';
import {
  segundoFatorDeUsuario,
  segundoFatorRedefinir,
  segurancaAlterar,
  segurancaLer,
} from '@novus/domain/api/segundo-fator';
import { useBackofficeApi } from '../backoffice-api';
import { serverMessageOr } from '../server-message';

const FALHA = 'Não foi possível falar com o servidor. Tente novamente.';
const serverMessage = (error: unknown) => serverMessageOr(error, FALHA);

export const SEGUNDO_FATOR_ADMIN_TEXTS = {
  exigir: 'Exigir verificação em duas etapas de administradores e supervisores',
  redefinir: 'Redefinir verificação em duas etapas',
  confirmar:
    'Redefinir a verificação em duas etapas deste usuário? Ele entrará só com a senha e poderá ligá-la de novo em Minha conta.',
  redefinida: 'Verificação em duas etapas redefinida.',
  ligada: (restantes: number) => `Ligada. Códigos de recuperação restantes: ${restantes}.`,
  desligada: 'Desligada: este usuário entra só com a senha.',
} as const;

export function ExigirSegundoFator() {
  const { api } = useBackofficeApi();
  const [exigido, setExigido] = useState<boolean | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    api.call(segurancaLer, {}).then(
      (answer) => setExigido(answer.segundoFatorObrigatorio),
      (error: unknown) => setFailure(serverMessage(error)),
    );
  }, [api]);

  const change = (value: boolean) => {
    setFailure(null);
    api.call(segurancaAlterar, { body: { segundoFatorObrigatorio: value } }).then(
      (answer) => setExigido(answer.segundoFatorObrigatorio),
      (error: unknown) => setFailure(serverMessage(error)),
    );
  };

  return (
    <Stack spacing={1}>
      <FormControlLabel
        label={SEGUNDO_FATOR_ADMIN_TEXTS.exigir}
        control={
          <Switch
            checked={exigido ?? false}
            disabled={exigido === null}
            onChange={(event) => change(event.target.checked)}
          />
        }
      />
      {failure && <Alert severity="error">{failure}</Alert>}
    </Stack>
  );
}

export function RedefinirSegundoFator({ userId }: { userId: string }) {
  const { api } = useBackofficeApi();
  const [estado, setEstado] = useState<{ ativo: boolean; codigosRestantes: number } | null>(null);
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    api
      .call(segundoFatorDeUsuario, { params: { id: userId } })
      .then(setEstado, (error: unknown) => setFailure(serverMessage(error)));
  }, [api, userId]);

  const redefinir = () => {
    if (!window.confirm(SEGUNDO_FATOR_ADMIN_TEXTS.confirmar)) return;
    setFailure(null);
    api.call(segundoFatorRedefinir, { params: { id: userId } }).then(
      () => {
        setDone(true);
        setEstado({ ativo: false, codigosRestantes: 0 });
      },
      (error: unknown) => setFailure(serverMessage(error)),
    );
  };

  return (
    <Stack spacing={1} alignItems="flex-start">
      <Typography component="h2" variant="h6">
        Verificação em duas etapas
      </Typography>
      {done && <Alert severity="success">{SEGUNDO_FATOR_ADMIN_TEXTS.redefinida}</Alert>}
      {failure && <Alert severity="error">{failure}</Alert>}
      {estado && (
        <Typography>
          {estado.ativo
            ? SEGUNDO_FATOR_ADMIN_TEXTS.ligada(estado.codigosRestantes)
            : SEGUNDO_FATOR_ADMIN_TEXTS.desligada}
        </Typography>
      )}
      {estado?.ativo && (
        <Button variant="outlined" onClick={redefinir}>
          {SEGUNDO_FATOR_ADMIN_TEXTS.redefinir}
        </Button>
      )}
    </Stack>
  );
}
