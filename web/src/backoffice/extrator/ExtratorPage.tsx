// 'Extrator': choose a project and a range of its days, then download its KML, CSV, photo, GeoPackage and XLSX files
// (SPEC.md section 2 'Extractor'), with the review's columns and filters if asked (issue 24).
import { useState } from 'react';
import { Stack } from '@mui/material';
import { getExtracao } from '@novus/domain/api/extrator';
import type { RevisaoExport } from '@novus/domain/export/revisao';
import { ExtracaoFiles } from './ExtracaoFiles';
import { LoadContent } from './LoadContent';
import { LOAD_FAILURE } from './messages';
import { PeriodoSelects, usePeriodo, type PeriodoEscolhido } from './PeriodoSelects';
import { ProjetoPageHead } from './ProjetoPageHead';
import { RevisaoFiltros } from './RevisaoFiltros';
import { SectionPaper } from './SectionPaper';
import { useApiLoad } from './use-api-load';
import { useProjetoDatas } from './use-projeto-datas';

export function ExtratorPage() {
  const { projetos, projetoId, setProjetoId, datas } = useProjetoDatas();
  const dias = datas.status === 'done' ? datas.value : [];
  const [periodo, setPeriodo] = usePeriodo(projetoId, dias);
  const [revisao, setRevisao] = useState<RevisaoExport>({});

  return (
    <Stack spacing={2}>
      <ProjetoPageHead
        title="Extrator"
        id="extrator-projeto"
        projetos={projetos}
        projetoId={projetoId}
        onProjeto={setProjetoId}
      >
        {periodo !== null && (
          <PeriodoSelects id="extrator" datas={dias} periodo={periodo} onChange={setPeriodo} />
        )}
      </ProjetoPageHead>
      {projetoId !== '' && (
        <SectionPaper title="Revisão">
          <RevisaoFiltros id="extrator-revisao" value={revisao} onChange={setRevisao} />
        </SectionPaper>
      )}
      <LoadContent load={datas} loadingLabel="Carregando datas">
        {() => <Arquivos projetoId={projetoId} periodo={periodo} revisao={revisao} />}
      </LoadContent>
    </Stack>
  );
}

/**
 * The files of the chosen range; a project with no days yet (null) still offers its KML files, of the whole
 * project (SPEC.md: the KML section shows once a project is chosen).
 */
function Arquivos({
  projetoId,
  periodo,
  revisao,
}: {
  projetoId: string;
  periodo: PeriodoEscolhido | null;
  revisao: RevisaoExport;
}) {
  const extracao = useApiLoad(
    JSON.stringify([
      projetoId,
      periodo?.dataInicio,
      periodo?.dataFim,
      revisao.revisao,
      revisao.estado,
      revisao.flag,
    ]),
    (api) => api.call(getExtracao, { params: { projeto: projetoId }, query: { ...periodo, ...revisao } }),
    LOAD_FAILURE.extracao,
  );
  return (
    <LoadContent load={extracao} loadingLabel="Carregando arquivos">
      {(value) => <ExtracaoFiles extracao={value} comDatas={periodo !== null} />}
    </LoadContent>
  );
}
