// 'Verificação em duas etapas' (issue 42): a TOTP second factor for accounts that log in with a password. Each
// user turns it on from their own account (a QR code and the secret as text, confirmed with a first code, ten
// recovery codes shown once); an administrador may require it of administradores and supervisores, and reset
// another user's (audited). The login itself takes the code in POST /api/auth/login (auth.ts).
import { codigoSchema, loginSchema } from '../auth.ts';
import { z } from '../zod.ts';
import { endpoint, FORM, uuidParam } from './contract.ts';

const TAG = 'autenticação';

const estadoAnswer = z
  .object({
    ativo: z.boolean().describe('A verificação em duas etapas está ligada.'),
    exigido: z.boolean().describe('O perfil do usuário a exige (configuração do administrador).'),
    codigosRestantes: z.number().int().describe('Códigos de recuperação ainda não usados.'),
  })
  .describe('Verificação em duas etapas');

const novoSegredoAnswer = z
  .object({
    segredo: z.string().describe('O segredo em base32, para digitar no aplicativo autenticador.'),
    uri: z.string().describe('O endereço otpauth:// que o QR code contém.'),
    qrSvg: z.string().describe('O QR code do endereço, em SVG.'),
  })
  .describe('Segredo a confirmar');

const codigosAnswer = z
  .object({
    codigosRecuperacao: z
      .array(z.string())
      .describe('Dez códigos de uso único para entrar sem o aplicativo; mostrados só agora.'),
  })
  .describe('Códigos de recuperação');

const codigoBody = z.object({ codigo: codigoSchema });

export const segundoFatorEstado = endpoint({
  method: 'GET',
  path: '/api/conta/segundo-fator',
  tag: TAG,
  summary: 'A verificação em duas etapas do próprio usuário: ligada, exigida, códigos restantes.',
  allow: 'sessão',
  ok: { status: 200, description: 'O estado.', answer: estadoAnswer },
});

export const segundoFatorIniciar = endpoint({
  method: 'POST',
  path: '/api/conta/segundo-fator',
  tag: TAG,
  summary: 'Gera um segredo novo para o próprio usuário, a confirmar com um primeiro código.',
  allow: 'sessão',
  ok: {
    status: 200,
    description: 'O segredo, o endereço otpauth:// e o QR code.',
    answer: novoSegredoAnswer,
  },
  errors: [409],
});

export const segundoFatorConfirmar = endpoint({
  method: 'POST',
  path: '/api/conta/segundo-fator/confirmar',
  tag: TAG,
  summary: 'Liga a verificação em duas etapas com o primeiro código do aplicativo.',
  allow: 'sessão',
  body: codigoBody,
  consumes: FORM,
  bodyLimit: 4 * 1024,
  ok: { status: 200, description: 'Ligada: os códigos de recuperação.', answer: codigosAnswer },
  errors: [409, 429],
});

export const segundoFatorDesativar = endpoint({
  method: 'POST',
  path: '/api/conta/segundo-fator/desativar',
  tag: TAG,
  summary: 'Desliga a verificação em duas etapas do próprio usuário, com um código válido.',
  allow: 'sessão',
  body: codigoBody,
  consumes: FORM,
  bodyLimit: 4 * 1024,
  ok: { status: 204, description: 'Desligada.' },
  errors: [403, 429],
});

export const segundoFatorNoLogin = endpoint({
  method: 'POST',
  path: '/api/auth/segundo-fator',
  tag: TAG,
  summary:
    'Para quem o perfil exige a verificação e ainda não a configurou: com login e senha, um segredo a confirmar no login.',
  allow: 'público',
  body: loginSchema.omit({ codigo: true }),
  consumes: FORM,
  bodyLimit: 16 * 1024,
  ok: {
    status: 200,
    description: 'O segredo, o endereço otpauth:// e o QR code.',
    answer: novoSegredoAnswer,
  },
  errors: [401, 409, 429],
});

export const segundoFatorDeUsuario = endpoint({
  method: 'GET',
  path: '/api/user/:id/segundo-fator',
  tag: 'usuários',
  summary: 'Se a verificação em duas etapas de outro usuário está ligada (o formulário do usuário).',
  allow: ['administrador'],
  params: z.object({ id: uuidParam('Identificador do usuário') }),
  ok: {
    status: 200,
    description: 'O estado.',
    answer: z.object({
      ativo: z.boolean().describe('Ligada.'),
      codigosRestantes: z.number().int().describe('Códigos de recuperação ainda não usados.'),
    }),
  },
});

export const segundoFatorRedefinir = endpoint({
  method: 'DELETE',
  path: '/api/user/:id/segundo-fator',
  tag: 'usuários',
  summary: 'Desliga a verificação em duas etapas de outro usuário (perdeu o aparelho); fica na auditoria.',
  allow: ['administrador'],
  params: z.object({ id: uuidParam('Identificador do usuário') }),
  ok: { status: 204, description: 'Desligada.' },
});

const segurancaBody = z
  .object({
    segundoFatorObrigatorio: z
      .boolean({ error: 'Informe se a verificação em duas etapas é obrigatória.' })
      .describe('Exigir a verificação em duas etapas de administradores e supervisores.'),
  })
  .describe('Segurança');

export const segurancaLer = endpoint({
  method: 'GET',
  path: '/api/configuracoes/seguranca',
  tag: 'usuários',
  summary: 'Se a verificação em duas etapas é obrigatória para administradores e supervisores.',
  allow: ['administrador'],
  ok: { status: 200, description: 'A configuração.', answer: segurancaBody },
});

export const segurancaAlterar = endpoint({
  method: 'PUT',
  path: '/api/configuracoes/seguranca',
  tag: 'usuários',
  summary: 'Exige (ou não) a verificação em duas etapas de administradores e supervisores.',
  allow: ['administrador'],
  body: segurancaBody,
  bodyLimit: 4 * 1024,
  ok: { status: 200, description: 'A configuração.', answer: segurancaBody },
});
