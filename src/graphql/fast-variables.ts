// A mutation's variables coerced by a plan made once per cached operation, not by graphql-js's walk of each
// variable's type on every request: the operation then runs as a copy whose variables are declared of a
// pass-through scalar. A value the plan does not take as it is (missing, extra, null, of another type) gets
// no plan's answer, and the request runs the usual way, so graphql-js reports it as it always does.

import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLNonNull,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  Kind,
  typeFromAST,
  type DocumentNode,
  type GraphQLInputType,
  type NamedTypeNode,
  type OperationDefinitionNode,
} from 'graphql';

import type { JsonObject } from '../aspects/json.ts';

const REFUSED = Symbol('refused');
type Coerce = (value: unknown) => unknown;

/** The scalar the copies declare their variables of: graphql-js's default parseValue passes a value through. */
const PASS_THROUGH = new GraphQLScalarType({ name: 'MinihubCoercedVariable' });
const PASS_THROUGH_TYPE: NamedTypeNode = { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: PASS_THROUGH.name } };

/** The schema the copies run in: the same types (and so the same resolvers), and the pass-through scalar. */
export function withPassThrough(schema: GraphQLSchema): GraphQLSchema {
  const config = schema.toConfig();
  return new GraphQLSchema({ ...config, types: [...config.types, PASS_THROUGH] });
}

export interface FastVariables {
  /** The document with the operation's variables declared of the pass-through scalar. */
  document: DocumentNode;
  /** The variables as graphql-js would coerce them, or null where the usual way must run. */
  coerce(variables: JsonObject | null): JsonObject | null;
}

/** A plan for the operation's variables, or null when one of their types is not one the plan knows. */
export function fastVariables(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): FastVariables | null {
  const definitions = operation.variableDefinitions ?? [];
  const plans: { name: string; required: boolean; coerce: Coerce }[] = [];
  for (const definition of definitions) {
    const type = typeFromAST(schema, definition.type);
    const coerce =
      type === undefined || definition.defaultValue !== undefined ? null : coercer(type as GraphQLInputType);
    if (coerce === null) return null;
    plans.push({ name: definition.variable.name.value, required: type instanceof GraphQLNonNull, coerce });
  }
  const copy: OperationDefinitionNode = {
    ...operation,
    variableDefinitions: definitions.map((definition) => ({ ...definition, type: PASS_THROUGH_TYPE })),
  };
  return {
    document: { ...document, definitions: document.definitions.map((node) => (node === operation ? copy : node)) },
    coerce(variables) {
      const given = variables ?? {};
      const coerced: JsonObject = {};
      for (const { name, required, coerce } of plans) {
        if (!Object.hasOwn(given, name)) {
          if (required) return null;
          continue;
        }
        const value = coerce(given[name]);
        if (value === REFUSED) return null;
        coerced[name] = value as JsonObject[string];
      }
      return coerced;
    },
  };
}

/** graphql-js's coercion of a value of `type` where it succeeds; REFUSED where it fails or is not known here. */
function coercer(type: GraphQLInputType): Coerce | null {
  if (type instanceof GraphQLNonNull) {
    const inner = coercer(type.ofType);
    return inner && ((value) => (value === null || value === undefined ? REFUSED : inner(value)));
  }
  const inner = nullableCoercer(type);
  return inner && ((value) => (value === null ? null : inner(value)));
}

function nullableCoercer(type: GraphQLInputType): Coerce | null {
  if (type === GraphQLString) return (value) => (typeof value === 'string' ? value : REFUSED);
  if (type === GraphQLBoolean) return (value) => (typeof value === 'boolean' ? value : REFUSED);
  if (type instanceof GraphQLEnumType) {
    const values = new Map(type.getValues().map((value) => [value.name, value.value as unknown]));
    return (value) => (typeof value === 'string' && values.has(value) ? values.get(value) : REFUSED);
  }
  if (type instanceof GraphQLInputObjectType && type.isOneOf !== true) return objectCoercer(type);
  return null;
}

function objectCoercer(type: GraphQLInputObjectType): Coerce | null {
  const fields: { name: string; required: boolean; coerce: Coerce }[] = [];
  for (const field of Object.values(type.getFields())) {
    const coerce = field.defaultValue === undefined ? coercer(field.type) : null;
    if (coerce === null) return null;
    fields.push({ name: field.name, required: field.type instanceof GraphQLNonNull, coerce });
  }
  const names = new Set(fields.map((field) => field.name));
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return REFUSED;
    const given = value as Record<string, unknown>;
    for (const key in given) if (!names.has(key)) return REFUSED;
    // Keys in the order of the type's fields, as graphql-js builds its coerced object.
    const coerced: Record<string, unknown> = {};
    for (const { name, required, coerce } of fields) {
      const field = given[name];
      if (field === undefined) {
        if (required) return REFUSED;
        continue;
      }
      const result = coerce(field);
      if (result === REFUSED) return REFUSED;
      coerced[name] = result;
    }
    return coerced;
  };
}
