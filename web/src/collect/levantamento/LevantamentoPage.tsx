// /levantamento (SPEC.md section 2): pending units and poles, newest first, each opening its record.
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Button, Card, CardActionArea, CardContent, LinearProgress, Stack, Typography } from '@mui/material';
import { posteFlow } from '@novus/domain/flows/poste';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { useServices } from '../../app/services';
import type { LocalColeta } from '../../offline/records';

export const EMPTY_TEXT = 'Não há dados a serem exibidos';

interface Item {
  record: LocalColeta;
  to: string;
  title: string;
}

function titleOf(kind: 'unidade' | 'poste', record: LocalColeta): string {
  const dados = record.dados;
  if (kind === 'unidade') {
    const numero = typeof dados.numero === 'string' ? `, nº ${dados.numero}` : '';
    return `Unidade ${String(dados.tipoUnidade ?? '')}${numero}`;
  }
  return `Poste ${String(dados.tipo ?? '')}`;
}

export function LevantamentoPage() {
  const { records } = useServices();
  const [items, setItems] = useState<Item[] | null>(null);

  useEffect(() => {
    let active = true;
    Promise.all([records.pending(unidadeFlow), records.pending(posteFlow)]).then(
      ([unidades, postes]) => {
        const all: Item[] = [
          ...unidades.map((record) => ({
            record,
            to: `/unidade/${record.id}`,
            title: titleOf('unidade', record),
          })),
          ...postes.map((record) => ({ record, to: `/poste/${record.id}`, title: titleOf('poste', record) })),
        ].sort((a, b) => b.record.dataHora - a.record.dataHora);
        if (active) setItems(all);
      },
      () => active && setItems([]),
    );
    return () => {
      active = false;
    };
  }, [records]);

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
