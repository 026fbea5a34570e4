// /correcoes (issue 24): the records the reviewer rejected, each with its flow, date, the reviewer's comment and
// who made it; tapping one opens it in its flow's record screen to fix it. Fixed ones wait there for the sync.
import { useCallback } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  Button,
  Card,
  CardActionArea,
  CardContent,
  Chip,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import type { Correcao } from '@novus/domain/revisao';
import { useServices } from '../../shared/services';
import type { LocalColeta } from '../../offline/records';
import { FLOW_UI } from '../flows';
import { revisorText } from '../shared/correcao';
import { useEveryFlow } from '../shared/hooks';

export const CORRECOES_TEXTS = {
  title: 'Correções',
  empty: 'Nenhuma correção pedida.',
  fixed: 'Corrigido: aguardando sincronização',
} as const;

interface Item {
  record: LocalColeta;
  correcao: Correcao;
  label: string;
  title: string;
  to: string;
}

/** Still to fix first, then the most recently rejected. */
const toFixFirst = (a: Item, b: Item) =>
  Number(Boolean(b.record.sincronizadoEm)) - Number(Boolean(a.record.sincronizadoEm)) ||
  b.correcao.em - a.correcao.em;

export function CorrecoesPage() {
  const { records } = useServices();
  const read = useCallback(
    async (flow: FlowDefinition): Promise<Item[]> =>
      (await records.correcoes(flow)).flatMap((record) =>
        record.correcao
          ? [
              {
                record,
                correcao: record.correcao,
                label: flow.labels.record,
                title: FLOW_UI[flow.key].title(record),
                to: `/${flow.recordPath}/${encodeURIComponent(record.id)}`,
              },
            ]
          : [],
      ),
    [records],
  );
  const items = useEveryFlow(read, toFixFirst, CORRECOES_TEXTS.title);

  return (
    <Stack spacing={2}>
      <Typography component="h1" variant="h5">
        {CORRECOES_TEXTS.title}
      </Typography>
      {items === null && <LinearProgress aria-label="Carregando" />}
      {items !== null && items.length === 0 && <Typography>{CORRECOES_TEXTS.empty}</Typography>}
      {items !== null && items.length > 0 && (
        <Stack
          component="ul"
          spacing={1}
          aria-label="Registros reprovados"
          sx={{ listStyle: 'none', p: 0, m: 0 }}
        >
          {items.map(({ record, correcao, label, title, to }) => (
            <li key={record.id}>
              <Card variant="outlined" sx={{ borderColor: record.sincronizadoEm ? 'error.main' : undefined }}>
                <CardActionArea component={RouterLink} to={to} sx={{ minHeight: 64 }}>
                  <CardContent>
                    <Stack spacing={0.5}>
                      <Typography variant="overline" component="p" sx={{ lineHeight: 1.5 }}>
                        {label}
                      </Typography>
                      <Typography sx={{ fontWeight: 600 }}>{title}</Typography>
                      <Typography variant="body2">
                        Coletado em {new Date(record.dataHora).toLocaleString('pt-BR')}
                      </Typography>
                      <Typography variant="body2" sx={{ fontStyle: 'italic' }}>
                        “{correcao.comentario}”
                      </Typography>
                      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                        {revisorText(correcao)}
                      </Typography>
                      {!record.sincronizadoEm && (
                        <Chip
                          color="success"
                          variant="outlined"
                          label={CORRECOES_TEXTS.fixed}
                          // a long label wraps on a narrow phone instead of being cut
                          sx={{
                            alignSelf: 'flex-start',
                            height: 'auto',
                            '& .MuiChip-label': { whiteSpace: 'normal', py: 0.5 },
                          }}
                        />
                      )}
                    </Stack>
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
