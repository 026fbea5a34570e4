// The routes of 'Verificação em duas etapas' (issue 42): one's own (state, set up, confirm, turn off), the set-up
// at login of a role that must have it, an administrador's reset of another user's, and the setting that requires
// it. The login's own step is in routes.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as api from '@novus/domain/api/segundo-fator';
import type { Database } from '../db/database.ts';
import { route } from '../contract.ts';
import { conflict, forbidden, notFound, unauthorized } from '../errors.ts';
import { recordAuditoria } from '../modules/auditoria/queries.ts';
import { type Access, requireSession } from './access.ts';
import type { Cifra } from './cifra.ts';
import type { LoginLimiter } from './login-limiter.ts';
import { PasswordLogin } from './password-login.ts';
import {
  aceitarCodigo,
  codigosRestantes,
  confirmarPendente,
  definirObrigatorio,
  desligar,
  exigidoPara,
  guardarPendente,
  novoSegredo,
  segundoFatorDe,
  segundoFatorObrigatorio,
} from './segundo-fator.ts';

export async function segundoFatorRoutes(
  app: FastifyInstance,
  { db, access, limiter, cifra }: { db: Database; access: Access; limiter: LoginLimiter; cifra: Cifra },
): Promise<void> {
  /** The signed-in user's row, or a 401 (a deleted user's token opens nothing). */
  const proprio = async (request: FastifyRequest) => {
    const user = await segundoFatorDe(db, requireSession(request).sub);
    if (!user) throw unauthorized();
    return user;
  };

  const passwords = new PasswordLogin(db, limiter);
  /** A wrong code counts toward the login's rate limit, as a wrong password does. */
  const recusar = (login: string, request: FastifyRequest) => passwords.codigoRecusado(login, request.ip);

  route(app, null, api.segundoFatorEstado, async ({ request }) => {
    const user = await proprio(request);
    return {
      ativo: user.totp_segredo !== null,
      exigido: await exigidoPara(db, user.roles),
      codigosRestantes: await codigosRestantes(db, user.id),
    };
  });

  route(app, null, api.segundoFatorIniciar, async ({ request }) => {
    const user = await proprio(request);
    if (user.totp_segredo !== null) throw conflict('A verificação em duas etapas já está ligada.');
    const novo = await novoSegredo(user.login);
    await guardarPendente(db, cifra, user.id, novo.segredo);
    return novo;
  });

  route(app, null, api.segundoFatorConfirmar, async ({ body, request }) => {
    const user = await proprio(request);
    await passwords.ensureNotBlocked(user.login, request.ip);
    if (user.totp_segredo !== null) throw conflict('A verificação em duas etapas já está ligada.');
    if (user.totp_pendente === null) {
      throw conflict('Nenhuma verificação em duas etapas em configuração: comece de novo.');
    }
    const codigosRecuperacao = await confirmarPendente(db, cifra, user, body.codigo);
    if (!codigosRecuperacao) throw await recusar(user.login, request);
    return { codigosRecuperacao };
  });

  route(app, null, api.segundoFatorDesativar, async ({ body, request }) => {
    const user = await proprio(request);
    if (await exigidoPara(db, user.roles)) {
      throw forbidden('A verificação em duas etapas é obrigatória para o seu perfil.');
    }
    await passwords.ensureNotBlocked(user.login, request.ip);
    const { totp_segredo: segredo } = user;
    if (segredo === null) return undefined;
    if (!(await aceitarCodigo(db, cifra, { id: user.id, totp_segredo: segredo }, body.codigo))) {
      throw await recusar(user.login, request);
    }
    await desligar(db, user.id);
    return undefined;
  });

  // A role that must have it, not set up yet: the password opens only this, and the login takes the first code.
  route(app, null, api.segundoFatorNoLogin, async ({ body: input, request }) => {
    const user = await passwords.check(input.login, input.password, request.ip);
    if (user.totp_segredo !== null) throw conflict('A verificação em duas etapas já está ligada.');
    const novo = await novoSegredo(user.login);
    await guardarPendente(db, cifra, user.id, novo.segredo);
    return novo;
  });

  route(app, access, api.segundoFatorDeUsuario, async ({ params: { id } }) => {
    const user = await segundoFatorDe(db, id);
    if (!user) throw notFound('Usuário não encontrado.');
    return { ativo: user.totp_segredo !== null, codigosRestantes: await codigosRestantes(db, user.id) };
  });

  route(app, access, api.segundoFatorRedefinir, async ({ params: { id }, request }) => {
    await db.transaction(async (tx) => {
      const rows = await tx.query<{ ativo: boolean }>(
        'SELECT totp_segredo IS NOT NULL AS ativo FROM usuarios WHERE id = $1 FOR UPDATE',
        [id],
      );
      const user = rows[0];
      if (!user) throw notFound('Usuário não encontrado.');
      await desligar(tx, id);
      await recordAuditoria(tx, {
        usuario: access.actor(request).id,
        entidade: 'usuario',
        entidadeId: id,
        acao: 'alterar',
        antes: { verificacaoEmDuasEtapas: user.ativo },
        depois: { verificacaoEmDuasEtapas: false },
      });
    });
    return undefined;
  });

  route(app, access, api.segurancaLer, async () => ({
    segundoFatorObrigatorio: await segundoFatorObrigatorio(db),
  }));

  route(app, access, api.segurancaAlterar, async ({ body, request }) => {
    await db.transaction(async (tx) => {
      const antes = await segundoFatorObrigatorio(tx);
      await definirObrigatorio(tx, body.segundoFatorObrigatorio);
      await recordAuditoria(tx, {
        usuario: access.actor(request).id,
        entidade: 'configuracao',
        entidadeId: 'seguranca',
        acao: 'alterar',
        antes: { segundoFatorObrigatorio: antes },
        depois: { segundoFatorObrigatorio: body.segundoFatorObrigatorio },
      });
    });
    return { segundoFatorObrigatorio: body.segundoFatorObrigatorio };
  });
}
