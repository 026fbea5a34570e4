// A download of the Extrator: a real link the browser saves with the session cookie, streamed to disk (files
// can be hundreds of MB, so never fetched into memory), with its record count: 'Unidades (1.234)'.
import { Button } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import type { Arquivo } from '@novus/domain/export/api';
import { formatNumero } from './datas';

export function arquivoText(arquivo: Arquivo): string {
  return `${arquivo.label} (${formatNumero(arquivo.registros)})`;
}

export function ArquivoButton({ arquivo }: { arquivo: Arquivo }) {
  return (
    <Button
      component="a"
      href={arquivo.url}
      download={arquivo.nome}
      variant="outlined"
      startIcon={<DownloadIcon />}
    >
      {arquivoText(arquivo)}
    </Button>
  );
}
