// LPT Agiltec on the shared wizard (SPEC.md sections 2, 3, 4, 5): the records of the project's file are chosen
// from a list filtered by Município, Nome and OS, then collected with updated contacts where the technician stands.
import { memo, useDeferredValue, useMemo, useState } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  Paper,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { Controller } from 'react-hook-form';
import type { FormValuesOf } from '@novus/domain/flows/flow';
import { lptAgiltecFlow, POSSUI_CASA } from '@novus/domain/flows/lpt-agiltec';
import type { LocalColeta } from '../../offline/records';
import { type ChooseStepProps, defineFlowUi, type FieldsProps } from '../flow-ui';
import { TextInput } from '../shared/fields';
import { filterLptAgiltec, indexLptAgiltec, type LptAgiltecEntry } from './lptv2-filter';

type LptAgiltecValues = FormValuesOf<typeof lptAgiltecFlow.dados>;

/** Rows drawn at a time: the list stays instant on a phone with a 10,000-row file. */
export const PAGE_SIZE = 50;

const numero = (count: number) => count.toLocaleString('pt-BR');
const registros = (count: number) => `${numero(count)} ${count === 1 ? 'registro' : 'registros'}`;

function coletadoLabel(record: LocalColeta): string {
  return record.sincronizadoEm ? 'Coletado' : 'Coletado, não enviado';
}

/**
 * The rows are plain list items and buttons styled once by the list, not MUI components: a keystroke redraws up
 * to PAGE_SIZE rows, and on a mid-range phone six styled components a row cost more than the filter itself.
 */
const LIST_SX = {
  listStyle: 'none',
  m: 0,
  p: 0,
  '& > li': {
    borderBottom: 1,
    borderColor: 'divider',
    // Rows off screen skip layout and paint until scrolled to.
    contentVisibility: 'auto',
    containIntrinsicSize: 'auto 76px',
  },
  '& > li:last-of-type': { borderBottom: 0 },
  '& button': {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    gap: 0.25,
    width: '100%',
    minHeight: 48,
    px: 2,
    py: 1.25,
    border: 0,
    bgcolor: 'transparent',
    color: 'text.primary',
    font: 'inherit',
    textAlign: 'left',
    cursor: 'pointer',
  },
  '& button:hover, & button:active': { bgcolor: 'action.hover' },
  '& button:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 },
  '& .lptv2-titulo': { typography: 'body1', fontWeight: 600 },
  '& .lptv2-onde': { typography: 'body2', color: 'text.secondary' },
  '& .lptv2-coletado': {
    typography: 'caption',
    fontWeight: 600,
    mt: 0.5,
    px: 1,
    py: 0.25,
    borderRadius: 4,
    bgcolor: 'success.dark',
    color: 'common.white',
  },
} as const;

/** Memoised: a keystroke redraws only the rows that enter the list, not those still in it. */
const LptAgiltecRow = memo(function LptAgiltecRow({
  entry,
  open,
}: {
  entry: LptAgiltecEntry;
  open: (record: LocalColeta) => void;
}) {
  const onde = [entry.comunidade, entry.municipio].filter(Boolean).join(' — ');
  return (
    <li>
      {/* The mark goes under the text, so a long name keeps the row's width on a phone. */}
      <button type="button" onClick={() => open(entry.record)}>
        <span className="lptv2-titulo">{`OS ${entry.os} · ${entry.nome}`}</span>
        {onde && <span className="lptv2-onde">{onde}</span>}
        {entry.coletado && (
          <span className="lptv2-coletado">
            <span aria-hidden>✓ </span>
            {coletadoLabel(entry.record)}
          </span>
        )}
      </button>
    </li>
  );
});

/** Step 1: the project's records on the device, filtered in memory, drawn PAGE_SIZE at a time. */
function LptAgiltecList({ records, open }: ChooseStepProps) {
  const index = useMemo(() => indexLptAgiltec(records), [records]);
  const [municipios, setMunicipios] = useState<string[]>([]);
  const [nome, setNome] = useState('');
  const [os, setOs] = useState('');
  // Typing stays responsive: React redraws the inputs first and the list when it can.
  const filtro = useDeferredValue(useMemo(() => ({ municipios, nome, os }), [municipios, nome, os]));
  const matches = useMemo(() => filterLptAgiltec(index, filtro), [index, filtro]);
  // 'Mostrar mais' counts for these matches only; new filters start again from the first page.
  const [more, setMore] = useState<{ of: LptAgiltecEntry[]; shown: number }>({ of: [], shown: PAGE_SIZE });
  const shown = more.of === matches ? more.shown : PAGE_SIZE;
  const filtered = municipios.length > 0 || nome.trim() !== '' || os.trim() !== '';

  return (
    <Stack spacing={2}>
      <Autocomplete
        multiple
        disableCloseOnSelect
        options={index.municipios}
        value={municipios}
        onChange={(_, value) => setMunicipios(value)}
        noOptionsText="Nenhum município"
        renderInput={(params) => <TextField {...params} label="Município" />}
      />
      <TextField label="Nome" value={nome} onChange={(event) => setNome(event.target.value)} fullWidth />
      <TextField
        label="OS"
        value={os}
        onChange={(event) => setOs(event.target.value)}
        fullWidth
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
      />
      <Typography variant="body2" role="status" data-testid="lptv2-total">
        {filtered
          ? `${registros(matches.length)} de ${numero(index.entries.length)}`
          : registros(matches.length)}
      </Typography>
      {index.entries.length === 0 ? (
        <Alert severity="info">
          Não há registros de LPT Agiltec neste aparelho. Sincronize para baixar o arquivo do projeto.
        </Alert>
      ) : matches.length === 0 ? (
        <Alert severity="info">Nenhum registro encontrado com esses filtros.</Alert>
      ) : (
        <Paper variant="outlined">
          <Box component="ul" sx={LIST_SX} aria-label="Registros LPT Agiltec">
            {matches.slice(0, shown).map((entry) => (
              <LptAgiltecRow key={entry.record.id} entry={entry} open={open} />
            ))}
          </Box>
        </Paper>
      )}
      {matches.length > shown && (
        <Button variant="outlined" onClick={() => setMore({ of: matches, shown: shown + PAGE_SIZE })}>
          Mostrar mais ({numero(matches.length - shown)} restantes)
        </Button>
      )}
    </Stack>
  );
}

/** The record's data from the project's file, as read-only text (SPEC.md section 3 'lptv2'). */
const ORIGINAL: readonly [string, string][] = [
  ['os', 'OS'],
  ['nome', 'Nome'],
  ['cpf', 'CPF'],
  ['telefone1', 'Telefone'],
  ['email', 'E-mail'],
  ['propriedade', 'Propriedade'],
  ['comunidade', 'Comunidade'],
  ['municipio', 'Município'],
  ['polo', 'Polo'],
  ['regional', 'Regional'],
];

function OriginalData({ record }: { record: LocalColeta }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="lptv2-dados-originais">
      <Typography component="h2" variant="h6" id="lptv2-dados-originais" sx={{ mb: 1 }}>
        Dados do cadastro
      </Typography>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}
      >
        {ORIGINAL.map(([campo, label]) => (
          <Box key={campo} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" sx={{ fontWeight: 600 }}>
              {label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
              {String(record.dados[campo] ?? '') || '—'}
            </Typography>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}

function LptAgiltecFields({ form, record, disabled }: FieldsProps<LptAgiltecValues>) {
  const { control } = form;
  return (
    <Stack spacing={2}>
      {record && <OriginalData record={record} />}
      {record?.coletado && (
        <Alert severity="info">
          {record.sincronizadoEm
            ? 'Este registro já foi coletado. Gravar registra uma nova coleta; as anteriores continuam no servidor.'
            : 'Este registro foi coletado neste aparelho e ainda não foi enviado. Gravar substitui essa coleta.'}
        </Alert>
      )}
      <TextInput
        control={control}
        name="telefoneAtualizado"
        label="Telefone atualizado"
        required
        numeric
        disabled={disabled}
      />
      <TextInput control={control} name="emailAtualizado" label="E-mail atualizado" disabled={disabled} />
      <Controller
        control={control}
        name="possuiCasa"
        render={({ field, fieldState }) => (
          <FormControl
            component="fieldset"
            required
            error={fieldState.error !== undefined}
            disabled={disabled}
          >
            <FormLabel component="legend">Possui casa?</FormLabel>
            <RadioGroup
              row
              name={field.name}
              value={field.value ?? ''}
              onChange={(event) => field.onChange(event.target.value)}
              onBlur={field.onBlur}
            >
              {POSSUI_CASA.map((opcao) => (
                <FormControlLabel
                  key={opcao}
                  value={opcao}
                  control={<Radio />}
                  label={opcao}
                  sx={{ minHeight: 48 }}
                />
              ))}
            </RadioGroup>
            {fieldState.error && <FormHelperText>{fieldState.error.message}</FormHelperText>}
          </FormControl>
        )}
      />
      <TextInput
        control={control}
        name="configuraMoradia"
        label="Configuração da moradia"
        multiline
        disabled={disabled}
      />
      <TextInput control={control} name="observacao" label="Observação" multiline disabled={disabled} />
    </Stack>
  );
}

export const lptAgiltecUi = defineFlowUi(lptAgiltecFlow, {
  Fields: LptAgiltecFields,
  initialValues: () => ({
    telefoneAtualizado: '',
    emailAtualizado: '',
    possuiCasa: '',
    configuraMoradia: '',
    observacao: '',
  }),
  title: (record) => `LPT Agiltec OS ${String(record.dados.os ?? '')} — ${String(record.dados.nome ?? '')}`,
  // Never on a map (the list replaces it); kept for the shell's table.
  marker: (record) => ({ color: lptAgiltecFlow.map.color, hollow: !record.coletado, kind: 'mapa-lptv2' }),
  ChooseStep: LptAgiltecList,
  chooseStepTitle: 'Escolha o registro',
  formTitle: 'Dados do registro',
  savedText: 'LPT Agiltec gravado no aparelho.',
  // Corrections are a new collection from the list, which takes a refreshed position.
  editableRecord: false,
});
