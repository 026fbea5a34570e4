// /levantamento (SPEC.md section 2): the pending records of every flow, newest first, each opening its record.
import { useCallback } from 'react';
import { Link as RouterLink } from 'react-router';
import { Button, Card, CardActionArea, CardContent, LinearProgress, Stack, Typography } from '@mui/material';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { useServices } from '../../shared/services';
import type { LocalColeta } from '../../offline/records';
import { FLOW_UI } from '../flows';
import { useEveryFlow } from '../shared/hooks';

export const EMPTY_TEXT = 'Não há dados a serem exibidos';

interface Item {
  record: LocalColeta;
  to: string;
  title: string;
}

const newestFirst = (a: Item, b: Item) => b.record.dataHora - a.record.dataHora;

export function LevantamentoPage() {
  const { records } = useServices();
  const read = useCallback(
    async (flow: FlowDefinition): Promise<Item[]> =>
      (await records.pending(flow)).map((record) => ({
        record,
        to: `/${flow.recordPath}/${record.id}`,
        title: FLOW_UI[flow.key].title(record),
      })),
    [records],
  );
  const items = useEveryFlow(read, newestFirst, 'Levantamento');

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
