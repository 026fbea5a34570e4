// What a flow brings to the shared wizard, record screen and lists (DESIGN.md 'The flow registry'): its fields
// component, its form values, how a record is titled and drawn. Everything else is the shell's.
import type { ComponentType, ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import type { FlowDefinition, FormValuesOf } from '@novus/domain/flows/flow';
import type { z } from '@novus/domain/zod';
import type { MapPoint } from '../map/field/types';
import type { LocalColeta } from '../offline/records';

export interface FieldsProps<V extends FieldValues> {
  form: UseFormReturn<V>;
  /** The record being collected or shown (null: a new record not stored yet). */
  record: LocalColeta | null;
  /** Read-only (the pole's record screen). */
  disabled?: boolean;
}

/** What a list that replaces the map step is given (ChooseStep). */
export interface ChooseStepProps {
  projetoId: string;
  /** The flow's records of the project on this device (downloaded and collected). */
  records: readonly LocalColeta[];
  /** Opens a record in the form. */
  open: (record: LocalColeta) => void;
}

/** A map layer other than the flow's own records (units choose their pole on the map). */
export interface MapLayer {
  points: MapPoint[];
  onPointClick: (id: string) => void;
  /** 'Gravar Coordenadas' waits for this besides a chosen point. */
  ready: boolean;
  hint?: ReactNode;
}

export interface FlowUi<V extends FieldValues = FieldValues> {
  Fields: ComponentType<FieldsProps<V>>;
  /** Values of an empty form. */
  initialValues: () => V;
  /** 'Uso Mútuo / IP 12', 'Unidade SDU, nº 45': the record's line in lists. */
  title: (record: LocalColeta) => string;
  /** How a record is drawn on the map. */
  marker: (record: LocalColeta) => Pick<MapPoint, 'color' | 'hollow' | 'kind'>;
  /** The form step's title ('Dados do poste'). */
  formTitle: string;
  /** Shown after Gravar ('Poste gravado no aparelho.'). */
  savedText: string;
  /** A confirmation before Gravar; Cancel aborts the save (SPEC.md section 5). */
  confirmSave?: string;
  /** Called when the form's rules refuse it, for rules the spec shows as an alert. */
  onInvalid?: (errors: Record<string, { message?: string } | undefined>) => void;
  /** A step before the map (the unit's type), resolving the form's first values. */
  FirstStep?: ComponentType<{ choose: (values: V) => void }>;
  firstStepTitle?: string;
  /**
   * Replaces the map step with a list to choose the record from (LPT Agiltec, SPEC.md section 2). Such records
   * have no position of their own: the form takes the GPS position when 'Atualizar localização' is pressed,
   * and Gravar waits for it (SPEC.md sections 4, 5).
   */
  ChooseStep?: ComponentType<ChooseStepProps>;
  chooseStepTitle?: string;
  /** Replaces the flow's own records on the map step. */
  useMapLayer?: (args: { projetoId: string; form: UseFormReturn<V> }) => MapLayer;
  /** A preloaded record may be moved to where the asset really is (BDGD): sets this boolean field. */
  movedField?: keyof V & string;
  /** The record screen can save corrections (units); otherwise its Gravar is disabled (poles). */
  editableRecord: boolean;
}

/**
 * Ties a flow's UI to its declaration with the form values its schema gives (FormValuesOf), then erases the
 * type for the table: the shell only hands each flow back the values its own schema made.
 */
export function defineFlowUi<S extends z.ZodType<Record<string, unknown>>>(
  _flow: FlowDefinition<S>,
  ui: FlowUi<FormValuesOf<S> & FieldValues>,
): FlowUi {
  return ui as unknown as FlowUi; // see above: values always come from this flow's own schema and form
}

/** A stored record's fields as form values, in the shapes of the empty form (booleans, lists, text). */
export function valuesOf<V extends FieldValues>(initial: V, dados: Record<string, unknown>): V {
  const values: Record<string, unknown> = { ...initial };
  for (const [key, empty] of Object.entries(initial)) {
    const value = dados[key];
    if (typeof empty === 'boolean') values[key] = value === true || value === 'true';
    else if (Array.isArray(empty)) values[key] = Array.isArray(value) ? value.map(String) : [];
    else values[key] = value === undefined || value === null ? '' : String(value);
  }
  return values as V; // same keys as `initial`, each value of the same kind
}
