// DataHub fields minihub keeps no data for (declared in absent.graphql) answer what DataHub answers for an
// entity that lacks the aspect: null where the field is nullable, else the type's empty value ([] for a
// list, false, 0, '', or an object of such values). It never invents data for a field minihub keeps.

import {
  defaultFieldResolver,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';

/** The SDL file whose fields answer empty when their source object lacks them. */
export const ABSENT_SDL_FILE = 'absent.graphql';

type Empty = null | boolean | number | string | readonly never[] | { readonly [field: string]: Empty };

const SCALAR_EMPTY: Readonly<Record<string, Empty>> = { Boolean: false, Int: 0, Float: 0, Long: 0, String: '', ID: '' };

/** Gives every field declared in ABSENT_SDL_FILE a resolver that answers empty when the value is missing. */
export function answerAbsentFieldsEmpty(schema: GraphQLSchema): void {
  const empties = new Map<GraphQLObjectType, Empty>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!(type instanceof GraphQLObjectType)) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.astNode?.loc?.source.name !== ABSENT_SDL_FILE) continue;
      field.resolve = absentAware(field, empties);
    }
  }
}

function absentAware(
  field: GraphQLField<unknown, unknown>,
  empties: Map<GraphQLObjectType, Empty>,
): GraphQLFieldResolver<unknown, unknown> {
  const base = field.resolve ?? defaultFieldResolver;
  return (source, args, context, info) => {
    const value = base(source, args, context, info);
    return value === undefined || value === null ? emptyOf(field.type, empties, 0) : value;
  };
}

/** The empty value of a type; null when nullable (what DataHub answers for a missing aspect). */
function emptyOf(type: GraphQLOutputType, empties: Map<GraphQLObjectType, Empty>, depth: number): Empty {
  if (!(type instanceof GraphQLNonNull)) return null;
  const inner = type.ofType;
  if (inner instanceof GraphQLList) return [];
  if (inner instanceof GraphQLScalarType) return SCALAR_EMPTY[inner.name] ?? null;
  // An object answers its own non-null fields empty; a cycle of non-null objects cannot be answered, so
  // the depth bound leaves null there and graphql-js reports it.
  if (inner instanceof GraphQLObjectType && depth < 8) {
    const known = empties.get(inner);
    if (known !== undefined) return known;
    const value: Record<string, Empty> = {};
    for (const field of Object.values(inner.getFields())) {
      const empty = emptyOf(field.type, empties, depth + 1);
      if (empty !== null) value[field.name] = empty;
    }
    const frozen = Object.freeze(value);
    empties.set(inner, frozen);
    return frozen;
  }
  // Enums, interfaces and unions have no empty value: a non-null one stays null and fails visibly.
  return null;
}
