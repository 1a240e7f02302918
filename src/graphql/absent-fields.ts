// DataHub fields minihub keeps no data for (declared in absent.graphql) answer what DataHub answers for an
// entity that lacks the aspect: null where the field is nullable, else the type's empty value ([] for a
// list, false, 0, '', or an object of such values). It never invents data for a field minihub keeps.
// An input field declared there is accepted as null or left out; a value in it is refused, never dropped.

import {
  defaultFieldResolver,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';

import { badRequest } from '../errors.ts';

/** The SDL file whose fields answer empty when their source object lacks them. */
export const ABSENT_SDL_FILE = 'absent.graphql';

type Empty = null | boolean | number | string | readonly never[] | { readonly [field: string]: Empty };

const SCALAR_EMPTY: Readonly<Record<string, Empty>> = { Boolean: false, Int: 0, Float: 0, Long: 0, String: '', ID: '' };

const declaredAbsent = (field: { astNode?: { loc?: { source: { name: string } } } | null }): boolean =>
  field.astNode?.loc?.source.name === ABSENT_SDL_FILE;

/**
 * Gives every output field declared in ABSENT_SDL_FILE a resolver that answers empty when the value is
 * missing, and every root field whose arguments can hold such an input field a check that it is null.
 */
export function answerAbsentFieldsEmpty(schema: GraphQLSchema): void {
  const empties = new Map<GraphQLObjectType, Empty>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!(type instanceof GraphQLObjectType)) continue;
    for (const field of Object.values(type.getFields())) {
      if (declaredAbsent(field)) field.resolve = absentAware(field, empties);
    }
  }
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      if (field.args.some((arg) => reachesAbsentInput(arg.type, new Set()))) field.resolve = refusingAbsentInput(field);
    }
  }
}

function reachesAbsentInput(type: GraphQLInputType, seen: Set<GraphQLInputObjectType>): boolean {
  const named = type instanceof GraphQLNonNull || type instanceof GraphQLList ? type.ofType : type;
  if (named instanceof GraphQLNonNull || named instanceof GraphQLList) return reachesAbsentInput(named, seen);
  if (!(named instanceof GraphQLInputObjectType) || seen.has(named)) return false;
  seen.add(named);
  return Object.values(named.getFields()).some(
    (field) => declaredAbsent(field) || reachesAbsentInput(field.type, seen),
  );
}

function refusingAbsentInput(field: GraphQLField<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> {
  const base = field.resolve ?? defaultFieldResolver;
  return (source, args: Record<string, unknown>, context, info) => {
    for (const arg of field.args) refuseAbsentValues(arg.type, args[arg.name]);
    return base(source, args, context, info);
  };
}

/** Throws when `value` (already coerced by graphql-js) sets an input field minihub does not keep. */
function refuseAbsentValues(type: GraphQLInputType, value: unknown): void {
  if (value === null || value === undefined) return;
  if (type instanceof GraphQLNonNull) return refuseAbsentValues(type.ofType, value);
  if (type instanceof GraphQLList) {
    for (const item of Array.isArray(value) ? value : [value]) refuseAbsentValues(type.ofType, item);
    return;
  }
  if (!(type instanceof GraphQLInputObjectType)) return;
  const fields = value as Record<string, unknown>;
  for (const field of Object.values(type.getFields())) {
    const inner = fields[field.name];
    if (inner === null || inner === undefined) continue;
    if (declaredAbsent(field)) {
      throw badRequest(
        `${type.name}.${field.name} is accepted only as null or left out: minihub keeps no such data (see its README, "Differences from DataHub")`,
      );
    }
    refuseAbsentValues(field.type, inner);
  }
}

function absentAware(
  field: GraphQLField<unknown, unknown>,
  empties: Map<GraphQLObjectType, Empty>,
): GraphQLFieldResolver<unknown, unknown> {
  const base = field.resolve ?? defaultFieldResolver;
  const page = emptyPage(field.type, empties);
  return (source, args, context, info) => {
    const value = base(source, args, context, info);
    if (value !== undefined && value !== null) return value;
    return page ?? emptyOf(field.type, empties, new Set());
  };
}

/**
 * A paged result (an object type with a `total`: relationships, lineage, runs, assertions...) is never
 * null in DataHub, nullable or not: an entity with none answers an empty page, counts 0 and lists [].
 */
function emptyPage(type: GraphQLOutputType, empties: Map<GraphQLObjectType, Empty>): Empty | undefined {
  const named = type instanceof GraphQLNonNull ? type.ofType : type;
  if (!(named instanceof GraphQLObjectType) || !('total' in named.getFields())) return undefined;
  const value: Record<string, Empty> = {};
  for (const field of Object.values(named.getFields())) {
    const inner = field.type instanceof GraphQLNonNull ? field.type.ofType : field.type;
    if (inner instanceof GraphQLList) value[field.name] = [];
    else if (inner instanceof GraphQLScalarType && (inner.name === 'Int' || inner.name === 'Long'))
      value[field.name] = 0;
    else {
      const empty = emptyOf(field.type, empties, new Set());
      if (empty !== null) value[field.name] = empty;
    }
  }
  return Object.freeze(value);
}

/** The empty value of a type; null when nullable (what DataHub answers for a missing aspect). */
function emptyOf(
  type: GraphQLOutputType,
  empties: Map<GraphQLObjectType, Empty>,
  visiting: Set<GraphQLObjectType>,
): Empty {
  if (!(type instanceof GraphQLNonNull)) return null;
  const inner = type.ofType;
  if (inner instanceof GraphQLList) return [];
  if (inner instanceof GraphQLScalarType) return SCALAR_EMPTY[inner.name] ?? null;
  // An object answers its own non-null fields empty. Along a cycle of non-null objects the type met again
  // is left out; its resolver answers it, one level further, only if a query asks for it.
  if (inner instanceof GraphQLObjectType && !visiting.has(inner)) {
    const known = empties.get(inner);
    if (known !== undefined) return known;
    visiting.add(inner);
    const value: Record<string, Empty> = {};
    for (const field of Object.values(inner.getFields())) {
      const empty = emptyOf(field.type, empties, visiting);
      if (empty !== null) value[field.name] = empty;
    }
    visiting.delete(inner);
    const frozen = Object.freeze(value);
    // Only a value built with no type above it on the path is the same wherever the type is met.
    if (visiting.size === 0) empties.set(inner, frozen);
    return frozen;
  }
  // Enums, interfaces and unions have no empty value: a non-null one stays null and fails visibly.
  return null;
}
