// 'Limites de qualidade' (administrador): the project's GPS accuracy and duplicate distance thresholds, in metres,
// for the flags of the next uploads.
import { useState } from 'react';
import { Button, Stack, TextField } from '@mui/material';
import { getLimites, limitesSchema, putLimites } from '@novus/domain/api/revisao';
import type { LimitesQualidade as Limites } from '@novus/domain/revisao';
import { useBackofficeApi } from '../backoffice-api';
import { LoadContent } from '../extrator/LoadContent';
import { SectionPaper } from '../extrator/SectionPaper';
import { useApiLoad } from '../extrator/use-api-load';
import { serverMessageOr } from '../server-message';
import { NoticeAlert, type Notice } from '../shared/notice';
import { REVISAO_FAILURE, REVISAO_TEXT } from './messages';

export function LimitesQualidade({ projetoId }: { projetoId: string }) {
  const limites = useApiLoad(
    `limites:${projetoId}`,
    (api) => api.call(getLimites, { params: { id: projetoId } }),
    REVISAO_FAILURE.limites,
  );
  return (
    <SectionPaper title="Limites de qualidade">
      <LoadContent load={limites} loadingLabel="Carregando limites de qualidade">
        {(value) => <LimitesForm key={projetoId} projetoId={projetoId} inicial={value} />}
      </LoadContent>
    </SectionPaper>
  );
}

/** Metres as people here write them: '8,5'. */
function metrosTexto(metros: number): string {
  return String(metros).replace('.', ',');
}

function LimitesForm({ projetoId, inicial }: { projetoId: string; inicial: Limites }) {
  const { api, log } = useBackofficeApi();
  const [precisao, setPrecisao] = useState(metrosTexto(inicial.precisaoMaxima));
  const [distancia, setDistancia] = useState(metrosTexto(inicial.distanciaDuplicata));
  const [erros, setErros] = useState<Partial<Record<keyof Limites, string>>>({});
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);

  const gravar = async () => {
    setNotice(null);
    const parsed = limitesSchema.safeParse({
      precisaoMaxima: precisao.replace(',', '.'),
      distanciaDuplicata: distancia.replace(',', '.'),
    });
    if (!parsed.success) {
      const found: Partial<Record<keyof Limites, string>> = {};
      for (const issue of parsed.error.issues) {
        const campo = issue.path[0];
        if ((campo === 'precisaoMaxima' || campo === 'distanciaDuplicata') && found[campo] === undefined)
          found[campo] = issue.message;
      }
      setErros(found);
      return;
    }
    setErros({});
    setBusy(true);
    try {
      const gravados = await api.call(putLimites, { params: { id: projetoId }, body: parsed.data });
      setPrecisao(metrosTexto(gravados.precisaoMaxima));
      setDistancia(metrosTexto(gravados.distanciaDuplicata));
      setNotice({ severity: 'success', text: REVISAO_TEXT.limitesGravados });
    } catch (error) {
      log(REVISAO_FAILURE.limitesGravar.log, error);
      setNotice({ severity: 'error', text: serverMessageOr(error, REVISAO_FAILURE.limitesGravar.text) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        <TextField
          id="limites-precisao"
          label="Precisão máxima (m)"
          inputMode="decimal"
          value={precisao}
          onChange={(event) => setPrecisao(event.target.value)}
          error={erros.precisaoMaxima !== undefined}
          helperText={erros.precisaoMaxima ?? 'Acima disso, o registro é sinalizado.'}
        />
        <TextField
          id="limites-duplicata"
          label="Distância de duplicata (m)"
          inputMode="decimal"
          value={distancia}
          onChange={(event) => setDistancia(event.target.value)}
          error={erros.distanciaDuplicata !== undefined}
          helperText={erros.distanciaDuplicata ?? 'Registros do mesmo fluxo mais próximos que isso.'}
        />
        <Button variant="contained" onClick={() => void gravar()} disabled={busy} sx={{ mt: 1 }}>
          Gravar
        </Button>
      </Stack>
      <NoticeAlert notice={notice} onClose={() => setNotice(null)} />
    </Stack>
  );
}
