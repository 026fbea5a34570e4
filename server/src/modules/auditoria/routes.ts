// /api/auditoria: the audit log of back-office writes, newest first, for the administrador only
// (domain/src/api/auditoria.ts).
import type { FastifyInstance } from 'fastify';
import * as api from '@novus/domain/api/auditoria';
import type { Access } from '../../auth/access.ts';
import { route } from '../../contract.ts';
import type { Database } from '../../db/database.ts';
import { badRequest } from '../../errors.ts';
import { type AuditAcao, type AuditRow, listAuditoria } from './queries.ts';

function entradaJson(row: AuditRow): api.Entrada {
  return {
    _id: row.id,
    em: new Date(row.em).toISOString(),
    usuario: { _id: row.usuario, nome: row.usuario_nome },
    entidade: row.entidade,
    entidadeId: row.entidade_id,
    // written only by recordAuditoria, whose acao is an AuditAcao
    acao: row.acao as AuditAcao,
    antes: row.antes,
    depois: row.depois,
  };
}

export async function auditoriaRoutes(
  app: FastifyInstance,
  { db, access }: { db: Database; access: Access },
) {
  route(app, access, api.listAuditoria, async ({ query: filter }) => {
    if (filter.inicio && filter.fim && filter.inicio > filter.fim) {
      throw badRequest('A data inicial deve ser anterior ou igual à data final.');
    }
    const tamanho = filter.tamanho ?? 50;
    const pagina = filter.pagina ?? 0;
    const { rows, total } = await listAuditoria(db, {
      usuario: filter.usuario?.toLowerCase(),
      inicio: filter.inicio,
      fim: filter.fim,
      limite: tamanho,
      offset: pagina * tamanho,
    });
    return { total, pagina, tamanho, entradas: rows.map(entradaJson) };
  });
}
