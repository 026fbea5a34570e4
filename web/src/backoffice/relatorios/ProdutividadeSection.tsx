// 'Produtividade': per technician per day over a range of the project's days, as a chart, a table and a CSV.
import { Alert, Button, Stack } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { listProdutividade } from '@novus/domain/api/relatorios';
import { produtividadeCsvUrl } from '../../api/extrator';
import { LoadContent } from '../extrator/LoadContent';
import { LOAD_FAILURE, NO_DATA } from '../extrator/messages';
import { PeriodoSelects, usePeriodo } from '../extrator/PeriodoSelects';
import { SectionPaper } from '../extrator/SectionPaper';
import { useApiLoad } from '../extrator/use-api-load';
import { ProdutividadeChart } from './ProdutividadeChart';
import { ProdutividadeTable } from './ProdutividadeTable';

interface Props {
  projetoId: string;
  /** The project's days with records, YYYY-MM-DD ascending (at least one). */
  datas: readonly string[];
}

export function ProdutividadeSection({ projetoId, datas }: Props) {
  const [periodo, setPeriodo] = usePeriodo(projetoId, datas);
  const produtividade = useApiLoad(
    periodo === null ? null : JSON.stringify([projetoId, periodo.dataInicio, periodo.dataFim]),
    (api) => api.call(listProdutividade, { params: { projeto: projetoId }, query: periodo ?? {} }),
    LOAD_FAILURE.produtividade,
  );
  if (periodo === null) return null;

  return (
    <SectionPaper
      title="Produtividade"
      action={
        <Button
          component="a"
          href={produtividadeCsvUrl(projetoId, periodo)}
          download
          variant="outlined"
          startIcon={<DownloadIcon />}
        >
          Baixar CSV
        </Button>
      }
    >
      <PeriodoSelects id="produtividade" datas={datas} periodo={periodo} onChange={setPeriodo} />
      <LoadContent load={produtividade} loadingLabel="Carregando produtividade">
        {(rows) =>
          rows.length === 0 ? (
            <Alert severity="info">{NO_DATA}</Alert>
          ) : (
            <Stack spacing={2}>
              <ProdutividadeChart rows={rows} />
              <ProdutividadeTable rows={rows} />
            </Stack>
          )
        }
      </LoadContent>
    </SectionPaper>
  );
}
