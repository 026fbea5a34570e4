// 'Exportar pendentes' on the home: the zip is written in the browser and saved as a download; nothing leaves
// the device by itself and nothing is deleted (the records stay pending until a sync or the back office has them).
import { useCallback, useState } from 'react';
import { useDevice, useShell } from '../shared/services';

export const EXPORT_TEXTS = {
  working: 'Exportando pendentes...',
  none: 'Não há registros pendentes para exportar.',
  done: (registros: number, fotos: number, arquivo: string) =>
    `${registros} ${registros === 1 ? 'registro' : 'registros'} e ${fotos} ${fotos === 1 ? 'foto' : 'fotos'} exportados em ${arquivo}. Guarde o arquivo ou envie-o ao escritório.`,
  failed: 'Não foi possível exportar os pendentes',
} as const;

export function useExportPendentes() {
  const { session, work } = useShell();
  const device = useDevice();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  const exportNow = useCallback(async () => {
    const end = work.begin('export');
    setBusy(true);
    setMessage({ text: EXPORT_TEXTS.working, error: false });
    try {
      // the registry and the zip writer come with the first export, not with the home
      const [{ FLOWS }, { exportPendentes, pendentesFileName, rememberedLogin }, { records }] =
        await Promise.all([
          import('@novus/domain/flows/registry'),
          import('../offline/pendentes-export'),
          device(),
        ]);
      const nome = session.get()?.nome ?? '';
      const login = rememberedLogin(window.localStorage);
      const now = new Date();
      const result = await exportPendentes(
        records,
        FLOWS,
        { nome, ...(login ? { login } : {}) },
        now.getTime(),
      );
      if (result.registros === 0) {
        setMessage({ text: EXPORT_TEXTS.none, error: false });
        return;
      }
      const arquivo = pendentesFileName(login ?? nome, now);
      const url = URL.createObjectURL(new Blob([result.zip as BlobPart], { type: 'application/zip' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = arquivo;
      document.body.append(link);
      link.click();
      link.remove();
      // The download has its own copy once started; give it a moment before letting the bytes go.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setMessage({ text: EXPORT_TEXTS.done(result.registros, result.fotos, arquivo), error: false });
    } catch (cause) {
      setMessage({
        text: `${EXPORT_TEXTS.failed}: ${cause instanceof Error ? cause.message : String(cause)}`,
        error: true,
      });
    } finally {
      setBusy(false);
      end();
    }
  }, [device, session, work]);

  return { busy, message, exportNow };
}
