// What 'pending' means on the device (SPEC.md section 4), apart from records.ts: the home's banners and storage panel
// read it on the first page without the record store and what it brings with it (Dexie).
import type { FlowMeta } from '@novus/domain/flows/meta';
import type { LocalColeta } from './records';

/** Pending = not yet on the server; for points, only once collected (SPEC.md section 4). */
export function isPending(
  flow: Pick<FlowMeta, 'lifecycle'>,
  record: Pick<LocalColeta, 'sincronizadoEm' | 'coletado'>,
): boolean {
  if (record.sincronizadoEm) return false;
  return flow.lifecycle === 'coleta' || record.coletado === true;
}
