// The top of a record's page on the device: what it is, when and where it was collected.
import { Typography } from '@mui/material';
import type { LocalColeta } from '../../offline/records';

export function RecordHeader({
  title,
  collected,
  record,
}: {
  title: string;
  collected: string;
  record: LocalColeta;
}) {
  return (
    <>
      <Typography component="h1" variant="h5">
        {title}
      </Typography>
      <Typography variant="body2">
        {collected} {new Date(record.dataHora).toLocaleString('pt-BR')} · {record.coordenadas.lat.toFixed(6)},{' '}
        {record.coordenadas.lng.toFixed(6)}
      </Typography>
    </>
  );
}
