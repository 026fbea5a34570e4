// 'Relatórios': a project of the user's, one of its days, what each technician collected that day with their
// CSV and KML (with the review's columns and filters if asked, issue 24), and the productivity over a range of days
// (SPEC.md section 2 'Reports screen').
import { useState } from 'react';
import { Alert, Stack } from '@mui/material';
import { listRelatorio } from '@novus/domain/api/relatorios';
import type { RevisaoExport } from '@novus/domain/export/revisao';
import { DataSelect } from '../extrator/DataSelect';
import { formatDia } from '../extrator/datas';
import { LoadContent } from '../extrator/LoadContent';
import { LOAD_FAILURE, NO_DATA } from '../extrator/messages';
import { ProjetoPageHead } from '../extrator/ProjetoPageHead';
import { RevisaoFiltros } from '../extrator/RevisaoFiltros';
import { SectionPaper } from '../extrator/SectionPaper';
import { useApiLoad, useScopedChoice } from '../extrator/use-api-load';
import { useProjetoDatas } from '../extrator/use-projeto-datas';
import { ProdutividadeSection } from './ProdutividadeSection';
import { RelatorioTable } from './RelatorioTable';

export function RelatorioPage() {
  const { projetos, projetoId, setProjetoId, datas } = useProjetoDatas();
  const dias = datas.status === 'done' ? datas.value : [];
  // the last day by default: the report a supervisor checks is usually yesterday's or today's
  const [data, setData] = useScopedChoice(projetoId, dias.length > 0 ? dias[dias.length - 1] : null);

  return (
    <Stack spacing={2}>
      <ProjetoPageHead
        title="Relatórios"
        id="relatorio-projeto"
        projetos={projetos}
        projetoId={projetoId}
        onProjeto={setProjetoId}
      >
        {data !== null && (
          <DataSelect id="relatorio-data" label="Data" datas={dias} value={data} onChange={setData} />
        )}
      </ProjetoPageHead>
      <LoadContent load={datas} loadingLabel="Carregando datas">
        {(value) =>
          data === null || value.length === 0 ? (
            <Alert severity="info">{NO_DATA}</Alert>
          ) : (
            <>
              <Tecnicos projetoId={projetoId} data={data} />
              <ProdutividadeSection projetoId={projetoId} datas={value} />
            </>
          )
        }
      </LoadContent>
    </Stack>
  );
}

function Tecnicos({ projetoId, data }: { projetoId: string; data: string }) {
  const [revisao, setRevisao] = useState<RevisaoExport>({});
  const relatorio = useApiLoad(
    JSON.stringify([projetoId, data, revisao.revisao, revisao.estado, revisao.flag]),
    (api) => api.call(listRelatorio, { params: { projeto: projetoId }, query: { data, ...revisao } }),
    LOAD_FAILURE.relatorio,
  );
  return (
    <SectionPaper title={`Técnicos em ${formatDia(data)}`}>
      <RevisaoFiltros id="relatorio-revisao" value={revisao} onChange={setRevisao} />
      <LoadContent load={relatorio} loadingLabel="Carregando relatório">
        {(rows) =>
          rows.length === 0 ? (
            <Alert severity="info">{NO_DATA}</Alert>
          ) : (
            <RelatorioTable data={data} rows={rows} />
          )
        }
      </LoadContent>
    </SectionPaper>
  );
}
