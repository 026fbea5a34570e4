// The Extrator's downloads for a project and range: KML, CSV (each only with rows) and the photos' zip
// (SPEC.md section 2 'Extractor'), then every record as a GeoPackage and the CSV files as one XLSX (issue 27);
// a project with no records yet has only its KML files.
import type { ReactNode } from 'react';
import { Alert, Stack, Typography } from '@mui/material';
import type { Arquivo, Extracao } from '@novus/domain/export/api';
import { ArquivoButton } from './ArquivoButton';
import { NO_DATA } from './messages';
import { SectionPaper } from './SectionPaper';

/** The CSV files worth a button: the server lists every export, the screen shows those with rows. */
export function csvComRegistros(csv: readonly Arquivo[]): Arquivo[] {
  return csv.filter((arquivo) => arquivo.registros > 0);
}

interface Props {
  extracao: Extracao;
  /** false: the project has no days with records, so there is no range and nothing for the CSV section. */
  comDatas: boolean;
}

export function ExtracaoFiles({ extracao, comDatas }: Props) {
  return (
    <Stack spacing={2}>
      <SectionPaper title="KML">
        <Buttons arquivos={extracao.kml} empty="Nenhum arquivo KML para este projeto." />
      </SectionPaper>
      {comDatas ? <PeriodoFiles extracao={extracao} /> : <Alert severity="info">{NO_DATA}</Alert>}
    </Stack>
  );
}

/** What depends on the range: the server's warning, the CSV files with rows and the photos. */
function PeriodoFiles({ extracao }: { extracao: Extracao }) {
  const csv = csvComRegistros(extracao.csv);
  return (
    <>
      {extracao.erro !== null && <Alert severity="warning">{extracao.erro}</Alert>}
      <SectionPaper title="CSV">
        <Buttons arquivos={csv} empty="Nenhum arquivo CSV com registros no período." />
      </SectionPaper>
      {extracao.fotos !== null && (
        <SectionPaper title="Fotos">
          <Buttons arquivos={[extracao.fotos]} empty={null} />
        </SectionPaper>
      )}
      {extracao.geopackage && (
        <SectionPaper title="GeoPackage">
          <Buttons arquivos={[extracao.geopackage]} empty={null} />
        </SectionPaper>
      )}
      {extracao.xlsx && (
        <SectionPaper title="XLSX">
          <Buttons arquivos={[extracao.xlsx]} empty={null} />
        </SectionPaper>
      )}
    </>
  );
}

function Buttons({ arquivos, empty }: { arquivos: readonly Arquivo[]; empty: ReactNode }) {
  if (arquivos.length === 0) return <Typography>{empty}</Typography>;
  return (
    <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap' }}>
      {arquivos.map((arquivo) => (
        <ArquivoButton key={arquivo.id} arquivo={arquivo} />
      ))}
    </Stack>
  );
}
