// Builds the executable schema once per process from every .graphql file beside this one (schema.graphql
// first, then the others in name order, which may `extend` its types) and gives `Long` its coercion.
// Resolvers are not attached here: they come as graphql-js root values (see resolvers/root.ts).

import { readdirSync, readFileSync } from 'node:fs';

import {
  buildASTSchema,
  concatAST,
  GraphQLError,
  GraphQLScalarType,
  Kind,
  parse,
  Source,
  type DocumentNode,
  type GraphQLSchema,
  type ValueNode,
} from 'graphql';

import { answerAbsentFieldsEmpty } from './absent-fields.ts';

let schema: GraphQLSchema | undefined;

export function minihubSchema(): GraphQLSchema {
  schema ??= build();
  return schema;
}

/** Every SDL file as one document; each is parsed as a Source of its own name, so a field can tell which file declared it. */
export function sdlDocument(): DocumentNode {
  return concatAST(
    sdlFiles().map((name) => parse(new Source(readFileSync(new URL(name, import.meta.url), 'utf8'), name))),
  );
}

function build(): GraphQLSchema {
  // The SDL's own rules (e.g. a field declared twice) are checked by a test building sdlDocument(); at
  // start-up that pass only costs tens of milliseconds. graphql-js still validates the built schema on first use.
  const built = buildASTSchema(sdlDocument(), { assumeValidSDL: true });
  answerAbsentFieldsEmpty(built);
  const long = built.getType('Long');
  if (!(long instanceof GraphQLScalarType)) throw new Error('schema.graphql must declare scalar Long');
  // buildSchema leaves custom scalars as pass-through; Long must accept ints, numbers and numeric
  // strings (graphql-java's extended scalar) and always answer a JSON number.
  long.serialize = toLong;
  long.parseValue = toLong;
  long.parseLiteral = (node: ValueNode) => {
    if (node.kind === Kind.INT || node.kind === Kind.STRING) return toLong(node.value);
    throw new GraphQLError(`Long cannot represent a ${node.kind} literal; expected an integer`, { nodes: node });
  };
  return built;
}

/** schema.graphql, then every other .graphql file in this folder in name order. */
function sdlFiles(): string[] {
  const others = readdirSync(new URL('.', import.meta.url))
    .filter((name) => name.endsWith('.graphql') && name !== 'schema.graphql')
    .sort();
  return ['schema.graphql', ...others];
}

function toLong(value: unknown): number {
  const number = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number)) {
    throw new GraphQLError(`Long cannot represent ${JSON.stringify(value)}; expected an integer`);
  }
  return number;
}
