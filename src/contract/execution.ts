/**
 * Scenario execution history (SPEC 2.3). Only fields the spec marks required are required,
 * plus execution_id and last_execution_date, which this service needs to key and order
 * executions. Fields not marked nullable are not nullable.
 */
import { Type, type Static } from '@sinclair/typebox';
import {
  AttributeSchema,
  AttributeVersion,
  ExecutionStatus,
  RuleDataType,
  RuleDocumentKind,
  RuleObjectType,
  RuleOperator,
} from './enums.js';
import { DateTime, Nullable, OpenObject } from './schema-helpers.js';

const Str = Type.String();

export const RuleAttribute = Type.Object(
  {
    version: Type.Optional(AttributeVersion),
    schema: Type.Optional(AttributeSchema),
    path: Type.Optional(Type.String({ format: 'attribute-path', description: 'see SPEC 2.3.1' })),
  },
  { title: 'RuleAttribute' },
);
export type RuleAttribute = Static<typeof RuleAttribute>;

type Scalar = boolean | string | number;

// "A boolean, string or number, or an array of these": one type array keeps it to a single
// readable error, where anyOf would report every branch.
export const RuleValue = Type.Unsafe<Scalar | Scalar[] | null>({
  type: ['boolean', 'string', 'number', 'array', 'null'],
  items: { type: ['boolean', 'string', 'number'] },
  description: 'a boolean, string or number, or an array of these; nullable',
});

export const RuleData = Type.Object(
  {
    queryId: Type.Optional(Type.String({ description: 'unique identifier of the query' })),
    id: Type.Optional(Type.String({ description: 'unique identifier of the query' })),
    requestId: Type.Optional(Type.Number({ description: 'request identifier for zero-knowledge proofs' })),
    attribute: RuleAttribute,
    value: Type.Optional(RuleValue),
    operator: Type.Optional(RuleOperator),
    type: Type.Optional(RuleDataType),
  },
  { title: 'RuleData' },
);
export type RuleData = Static<typeof RuleData>;

export const RuleDocument = Type.Object(
  {
    documentType: Type.Optional(RuleDocumentKind),
    url: Type.Optional(Str),
  },
  { title: 'RuleDocument' },
);
export type RuleDocument = Static<typeof RuleDocument>;

export const RuleExecution = Type.Object(
  {
    id: Type.Optional(Str),
    execution_id: Type.Optional(Str),
    cms_object_id: Type.Optional(Str),
    cms_scenario_id: Type.Optional(Str),
    object_type: Type.Optional(RuleObjectType),
    result: Type.Optional(OpenObject({}, { description: 'result of the rule; inner shape left open by the interface' })),
    rule_data: Type.Optional(Nullable(RuleData)),
    status: Type.Optional(ExecutionStatus),
    executed_at: Type.Optional(DateTime()),
    created_at: Type.Optional(DateTime()),
    documents: Type.Optional(Nullable(Type.Array(RuleDocument))),
  },
  { title: 'RuleExecution' },
);
export type RuleExecution = Static<typeof RuleExecution>;

export const ScenarioExecution = Type.Object(
  {
    scenarioId: Type.Optional(Str),
    rules: Type.Array(RuleExecution),
    scenarioStatus: Type.Optional(ExecutionStatus),
    executed_at: Type.Optional(DateTime()),
  },
  { title: 'ScenarioExecution' },
);
export type ScenarioExecution = Static<typeof ScenarioExecution>;

export const Execution = Type.Object(
  {
    execution_id: Type.String({ description: 'required here: the service keys executions by it' }),
    scenario_executions: Type.Array(ScenarioExecution),
    execution_status: Type.Optional(ExecutionStatus),
    last_execution_date: DateTime({ description: 'required here: the service orders executions by it' }),
  },
  { $id: 'Execution', title: 'Execution', description: 'One execution of the scenario execution history (SPEC 2.3)' },
);
export type Execution = Static<typeof Execution>;
