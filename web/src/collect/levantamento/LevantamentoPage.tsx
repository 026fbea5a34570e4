// /levantamento (SPEC.md section 2): the pending records of every flow, newest first, each opening its record.
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Button, Card, CardActionArea, CardContent, LinearProgress, Stack, Typography } from '@mui/material';
import { FLOWS } from '@novus/domain/flows/registry';
import { useReportFailure, useServices } from '../../shared/services';
import { DEVICE_FAILURE } from '../../offline/device-log';
import type { LocalColeta } from '../../offline/records';
import { FLOW_UI } from '../flows';

export const EMPTY_TEXT = 'Não há dados a serem exibidos';

interface Item {
  record: LocalColeta;
  to: string;
  title: string;
}

export function LevantamentoPage() {
  const { records, localStore } = useServices();
  const reportFailure = useReportFailure();
  const [items, setItems] = useState<Item[] | null>(null);
  // Read again after every write, in this tab or another (issue 25): a unit saved elsewhere shows here.
  const [changes, setChanges] = useState(0);
  useEffect(() => localStore.onChange(() => setChanges((count) => count + 1)), [localStore]);

  useEffect(() => {
    let active = true;
    Promise.all(
      FLOWS.map(async (flow) => {
        const ui = FLOW_UI[flow.key];
        return (await records.pending(flow)).map((record) => ({
          record,
          to: `/${flow.recordPath}/${record.id}`,
          title: ui.title(record),
        }));
      }),
    ).then(
      (lists) => {
        const all = lists.flat().sort((a, b) => b.record.dataHora - a.record.dataHora);
        if (active) setItems(all);
      },
      (error: unknown) => {
        reportFailure(DEVICE_FAILURE.read('Levantamento'), error);
        if (active) setItems([]);
      },
    );
    return () => {
      active = false;
    };
  }, [records, reportFailure, changes]);

  return (
    <Stack spacing={2}>
      <Typography component="h1" variant="h5">
        Levantamento
      </Typography>
      {items === null && <LinearProgress aria-label="Carregando" />}
      {items !== null && items.length === 0 && <Typography>{EMPTY_TEXT}</Typography>}
      {items !== null && items.length > 0 && (
        <Stack
          component="ul"
          spacing={1}
          aria-label="Registros pendentes"
          sx={{ listStyle: 'none', p: 0, m: 0 }}
        >
          {items.map(({ record, to, title }) => (
            <li key={record.id}>
              <Card variant="outlined">
                <CardActionArea component={RouterLink} to={to} sx={{ minHeight: 64 }}>
                  <CardContent>
                    <Typography sx={{ fontWeight: 600 }}>{title}</Typography>
                    <Typography variant="body2">
                      {new Date(record.dataHora).toLocaleString('pt-BR')} ·{' '}
                      {record.fotos.filter(Boolean).length} foto(s)
                      {record.imagensCompactadas ? '' : ' · não compactadas'}
                    </Typography>
                  </CardContent>
                </CardActionArea>
              </Card>
            </li>
          ))}
        </Stack>
      )}
      <Button component={RouterLink} to="/" variant="outlined">
        Voltar
      </Button>
    </Stack>
  );
}
