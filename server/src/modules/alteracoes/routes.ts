// GET /api/alteracoes (issue 27): a project's changes past a cursor for the systems that read Novus and the back
// office, each with its record as the record endpoints answer it (registroJson).
import type { FastifyInstance } from 'fastify';
import * as api from '@novus/domain/api/alteracoes';
import { flowOf } from '@novus/domain/flows/registry';
import { type Access, ensure, policies } from '../../auth/access.ts';
import { route } from '../../contract.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { notFound } from '../../errors.ts';
import { findProjeto, listColetas, type RegistroRow } from '../registros/queries.ts';
import { registroJson } from '../registros/routes.ts';
import { type AlteracaoRow, listAlteracoes } from './queries.ts';

export const ALTERACOES_ROUTE_TEXTS = { projetoNotFound: 'Projeto não encontrado.' } as const;

/**
 * Changes as the feed answers them: each record with its competing collections when its flow has points (one
 * query for the page). A change whose record is gone is left out; the cursor still moves past it.
 */
export async function alteracoesJson(db: Queryable, rows: AlteracaoRow[]): Promise<api.Alteracao[]> {
  const pontos = new Set<string>();
  for (const { registro } of rows) {
    if (registro && flowOf(registro.fluxo).lifecycle !== 'coleta') pontos.add(registro.id);
  }
  const competing = new Map<string, RegistroRow[]>();
  for (const coleta of await listColetas(db, [...pontos])) {
    if (coleta.conflito_de === null) continue;
    competing.set(coleta.conflito_de, [...(competing.get(coleta.conflito_de) ?? []), coleta]);
  }
  return rows.flatMap(({ id, evento, em, versao, registro }) =>
    registro
      ? [
          {
            cursor: api.cursorOf(id),
            evento,
            em: em.getTime(),
            fluxo: registro.fluxo,
            versao,
            registro: registroJson(flowOf(registro.fluxo), registro, competing.get(registro.id) ?? []),
          },
        ]
      : [],
  );
}

export async function alteracaoRoutes(
  app: FastifyInstance,
  { db, access }: { db: Database; access: Access },
) {
  route(app, access, api.listAlteracoes, async ({ query, request }) => {
    const projeto = await findProjeto(db, 'id', query.projeto);
    if (!projeto) throw notFound(ALTERACOES_ROUTE_TEXTS.projetoNotFound);
    ensure(
      policies.readProjeto(access.actor(request), {
        cliente: projeto.cliente,
        disponivelInterpres: projeto.disponivel_interpres,
      }),
    );
    // One more than asked: whether anything is left to read now.
    const rows = await listAlteracoes(db, projeto.id, query.desde, query.limite + 1);
    const page = rows.slice(0, query.limite);
    return {
      alteracoes: await alteracoesJson(db, page),
      proximo: api.cursorOf(page.at(-1)?.id ?? query.desde),
      fim: rows.length <= query.limite,
    };
  });
}
