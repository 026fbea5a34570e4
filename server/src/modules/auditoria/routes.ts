// /api/auditoria?usuario=&inicio=&fim=&pagina=&tamanho=: the audit log of back-office writes, newest first, for
// the administrador only. inicio and fim are days (YYYY-MM-DD, both inclusive) in FUSO_HORARIO, as the reports'.
import type { FastifyInstance } from 'fastify';
import { daySchema } from '@novus/domain/export/periodo';
import { z } from '@novus/domain/zod';
import type { Access } from '../../auth/access.ts';
import type { Database } from '../../db/database.ts';
import { badRequest, parseInput } from '../../errors.ts';
import { type AuditRow, listAuditoria } from './queries.ts';

const PAGE_MAX = 200;

/** An empty parameter (an unset select or date input) means no filter. */
const optional = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

export const filterSchema = z.object({
  usuario: optional(z.uuid({ error: 'Usuário inválido.' })),
  inicio: optional(daySchema('Data inicial')),
  fim: optional(daySchema('Data final')),
  pagina: optional(
    z.coerce
      .number({ error: 'Página inválida.' })
      .int('Página inválida.')
      .min(0, 'Página inválida.')
      .max(1_000_000, 'Página inválida.'),
  ),
  tamanho: optional(
    z.coerce
      .number({ error: 'Tamanho de página inválido.' })
      .int('Tamanho de página inválido.')
      .min(1, 'Tamanho de página inválido.')
      .max(PAGE_MAX, `O tamanho de página máximo é ${PAGE_MAX}.`),
  ),
});

function entradaJson(row: AuditRow) {
  return {
    _id: row.id,
    em: new Date(row.em).toISOString(),
    usuario: { _id: row.usuario, nome: row.usuario_nome },
    entidade: row.entidade,
    entidadeId: row.entidade_id,
    acao: row.acao,
    antes: row.antes,
    depois: row.depois,
  };
}

export async function auditoriaRoutes(
  app: FastifyInstance,
  { db, access }: { db: Database; access: Access },
) {
  app.get('/api/auditoria', { preHandler: access.allow('administrador') }, async (request) => {
    const filter = parseInput(filterSchema, request.query);
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
