// 'Adicionar Usuário' (/backoffice/usuario/add) and 'Alterar Usuário' (/backoffice/usuario/:userId).
import { useEffect, useReducer, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import {
  Box,
  Button,
  Checkbox,
  CircularProgress,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { ROLE_LABELS, ROLES } from '@novus/domain/roles';
import { listProjetosByCliente, type ProjetoByCliente } from '@novus/domain/api/projetos';
import { createUsuario, getUsuario, updateUsuario } from '@novus/domain/api/usuarios';
import { useBackofficeApi } from '../backoffice-api';
import { serverMessageOr } from '../server-message';
import { NoticeAlert, type Notice } from '../shared/notice';
import { SubmitButton } from '../shared/SubmitButton';
import { useClientes } from '../shared/use-clientes';
import { useRecordLoad } from '../shared/use-record-load';
import { USUARIO_TEXT } from './messages';
import { RedefinirSegundoFator } from './SegundoFatorAdmin';
import {
  emptyUsuarioForm,
  type TextField as TextFieldName,
  usuarioCreateBody,
  usuarioFormReducer,
  usuarioUpdateBody,
} from './usuario-form';

/** The projects (and zones) of one client, as loaded for the 'Projetos [Zona]' list. */
interface ClienteProjetos {
  cliente: string;
  projetos: ProjetoByCliente[] | 'loading' | 'failed';
}

export function UsuarioForm() {
  const { userId } = useParams();
  const editing = userId !== undefined;
  const { api, log } = useBackofficeApi();
  const [state, dispatch] = useReducer(usuarioFormReducer, editing, emptyUsuarioForm);
  const clientes = useClientes();
  const [projetos, setProjetos] = useState<ClienteProjetos>({ cliente: '', projetos: [] });
  const [sending, setSending] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);

  const loading = useRecordLoad(userId, {
    fetch: (id) => api.call(getUsuario, { params: { id } }),
    loaded: (usuario) => dispatch({ type: 'loaded', usuario }),
    failure: { log: 'Falha ao carregar usuário', text: USUARIO_TEXT.loadOneFailed },
    onNotice: setNotice,
  });

  const tecnico = state.roles.includes('tecnico');
  useEffect(() => {
    if (!tecnico || state.cliente === '') return;
    const cliente = state.cliente;
    let active = true;
    api.call(listProjetosByCliente, { params: { clienteId: cliente } }).then(
      (list) => active && setProjetos({ cliente, projetos: list }),
      (error: unknown) => {
        if (!active) return;
        log('Falha ao carregar projetos do cliente', error);
        setProjetos({ cliente, projetos: 'failed' });
      },
    );
    return () => {
      active = false;
    };
  }, [api, log, tecnico, state.cliente]);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setNotice(null);
    setSending(true);
    try {
      if (userId === undefined) {
        await api.call(createUsuario, { body: usuarioCreateBody(state) });
        dispatch({ type: 'reset' });
        setNotice({ severity: 'success', text: USUARIO_TEXT.created });
      } else {
        await api.call(updateUsuario, { params: { id: userId }, body: usuarioUpdateBody(state, userId) });
        dispatch({ type: 'field', field: 'password', value: '' });
        dispatch({ type: 'field', field: 'passwordConfirmation', value: '' });
        setNotice({ severity: 'success', text: USUARIO_TEXT.updated });
      }
    } catch (error) {
      log(editing ? 'Falha ao gravar alterações de usuário' : 'Falha ao adicionar usuário', error);
      setNotice({
        severity: 'error',
        text: editing
          ? serverMessageOr(error, USUARIO_TEXT.updateFailed, 'edit')
          : serverMessageOr(error, USUARIO_TEXT.createFailed, 'create'),
      });
    } finally {
      setSending(false);
    }
  };

  const text = (
    field: TextFieldName,
    label: string,
    extra: { type?: string; autoComplete?: string } = {},
  ) => (
    <TextField
      label={label}
      value={state[field]}
      onChange={(event) => dispatch({ type: 'field', field, value: event.target.value })}
      disabled={field === 'login' && editing}
      slotProps={{ inputLabel: { shrink: true } }}
      {...extra}
    />
  );

  return (
    <Stack spacing={2} sx={{ maxWidth: 640 }}>
      <Typography component="h1" variant="h5">
        {editing ? 'Alterar Usuário' : 'Adicionar Usuário'}
      </Typography>
      <NoticeAlert notice={notice} />
      {loading ? (
        <CircularProgress aria-label="Carregando usuário" />
      ) : (
        <Box component="form" onSubmit={(event) => void onSubmit(event)} noValidate>
          <Stack spacing={2}>
            {text('login', 'Login', { autoComplete: 'off' })}
            {text('firstName', 'Primeiro Nome')}
            {text('lastName', 'Sobrenome')}
            {text('password', 'Senha', { type: 'password', autoComplete: 'new-password' })}
            {text('passwordConfirmation', 'Redigite a Senha', {
              type: 'password',
              autoComplete: 'new-password',
            })}
            <TextField
              select
              label="Cliente"
              value={clientes.some((c) => c._id === state.cliente) ? state.cliente : ''}
              onChange={(event) => dispatch({ type: 'cliente', value: event.target.value })}
              slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
            >
              <MenuItem value="">
                <em>Nenhum</em>
              </MenuItem>
              {clientes.map((cliente) => (
                <MenuItem key={cliente._id} value={cliente._id}>
                  {cliente.nome}
                </MenuItem>
              ))}
            </TextField>
            <FormControl component="fieldset">
              <FormLabel component="legend">Perfil</FormLabel>
              <FormGroup row>
                {ROLES.map((role) => (
                  <FormControlLabel
                    key={role}
                    label={ROLE_LABELS[role]}
                    control={
                      <Checkbox
                        checked={state.roles.includes(role)}
                        onChange={(event) => dispatch({ type: 'role', role, checked: event.target.checked })}
                      />
                    }
                  />
                ))}
              </FormGroup>
            </FormControl>
            {tecnico && (
              <FormControl component="fieldset">
                <FormLabel component="legend">Projetos [Zona]</FormLabel>
                <ZonaChoices
                  cliente={state.cliente}
                  loaded={projetos.cliente === state.cliente ? projetos.projetos : 'loading'}
                  chosen={state.zonas}
                  onChange={(zona, checked) => dispatch({ type: 'zona', zona, checked })}
                />
              </FormControl>
            )}
            <Stack direction="row" spacing={1}>
              <SubmitButton sending={sending} />
              <Button component={RouterLink} to="/backoffice/usuario" variant="text">
                Voltar
              </Button>
            </Stack>
          </Stack>
        </Box>
      )}
      {userId !== undefined && <RedefinirSegundoFator userId={userId} />}
    </Stack>
  );
}

interface ZonaChoicesProps {
  cliente: string;
  loaded: ClienteProjetos['projetos'];
  chosen: string[];
  onChange: (zona: string, checked: boolean) => void;
}

function ZonaChoices({ cliente, loaded, chosen, onChange }: ZonaChoicesProps) {
  if (cliente === '')
    return <FormHelperText>Escolha um cliente para ver os projetos e as zonas.</FormHelperText>;
  if (loaded === 'loading') return <CircularProgress size={24} aria-label="Carregando projetos" />;
  if (loaded === 'failed')
    return <FormHelperText error>Falha ao carregar os projetos do cliente.</FormHelperText>;
  const options = loaded.flatMap((projeto) =>
    projeto.zonas.map((zona) => ({ id: zona._id, label: `${projeto.nome} [${zona.label}]` })),
  );
  if (options.length === 0) return <FormHelperText>O cliente não tem projetos com zonas.</FormHelperText>;
  return (
    <FormGroup>
      {options.map((option) => (
        <FormControlLabel
          key={option.id}
          label={option.label}
          control={
            <Checkbox
              checked={chosen.includes(option.id)}
              onChange={(event) => onChange(option.id, event.target.checked)}
            />
          }
        />
      ))}
    </FormGroup>
  );
}
