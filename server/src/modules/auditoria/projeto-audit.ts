// A project's save in the audit log: the project's fields ('criar'/'alterar') and, as their own 'importar'
// entries, the zone KML and each flow's point file when the save replaced them with something different.
import { PRELOADED_FLOWS, type PreloadedFluxo } from '@novus/domain/flows/registry';
import type { Queryable } from '../../db/database.ts';
import {
  type Imported,
  pontosImportados,
  projetoValores,
  recordAuditoria,
  zonasImportadas,
} from './queries.ts';

export interface ProjetoAudit {
  /** Records the entries of the save; `replaced` says what the request sent (zones, points per flow). */
  finish(projetoId: string, replaced: { zonas: boolean; fluxos: PreloadedFluxo[] }): Promise<void>;
}

/** Reads the project as it is before the save (nothing for a new one), in the save's transaction. */
export async function startProjetoAudit(
  tx: Queryable,
  usuario: string,
  id: string | undefined,
): Promise<ProjetoAudit> {
  const antes = id === undefined ? null : await projetoValores(tx, id);
  const zonasAntes = id === undefined ? null : await zonasImportadas(tx, id);
  const pontosAntes = new Map<PreloadedFluxo, Imported>();
  if (id !== undefined) {
    for (const flow of PRELOADED_FLOWS) pontosAntes.set(flow.key, await pontosImportados(tx, id, flow.key));
  }

  async function recordImport(
    projetoId: string,
    entidade: 'zonas' | `pontos:${PreloadedFluxo}`,
    before: Imported | null,
    after: Imported,
  ) {
    // A new project's import starts from nothing; an unchanged file sent again is no change.
    if (before === null ? after.vazio : before.marca === after.marca) return;
    await recordAuditoria(tx, {
      usuario,
      entidade,
      entidadeId: projetoId,
      acao: 'importar',
      antes: before?.valores ?? null,
      depois: after.valores,
    });
  }

  return {
    async finish(projetoId, replaced) {
      await recordAuditoria(tx, {
        usuario,
        entidade: 'projeto',
        entidadeId: projetoId,
        acao: id === undefined ? 'criar' : 'alterar',
        antes,
        depois: await projetoValores(tx, projetoId),
      });
      if (replaced.zonas) {
        await recordImport(projetoId, 'zonas', zonasAntes, await zonasImportadas(tx, projetoId));
      }
      for (const fluxo of replaced.fluxos) {
        const after = await pontosImportados(tx, projetoId, fluxo);
        await recordImport(projetoId, `pontos:${fluxo}`, pontosAntes.get(fluxo) ?? null, after);
      }
    },
  };
}
