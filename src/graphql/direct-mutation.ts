// A planned mutation of one root field with a Boolean or String result, run by calling its resolver directly
// instead of through graphql-js's execute. Only the plain outcome is answered here; a throw or any other
// result is handed back for graphql-js to complete as it always does, so no answer or error differs.

import {
  GraphQLBoolean,
  GraphQLNonNull,
  GraphQLString,
  Kind,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';

import type { JsonObject } from '../aspects/json.ts';

type Resolver = (args: Record<string, unknown>, context: unknown) => unknown;

/** How a resolver's call ended: what graphql-js gets to complete when it is not answered here. */
export type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

export interface DirectMutation {
  /** The field's name, as the root value and graphql-js know it. */
  field: string;
  /** Calls the resolver with the arguments taken from coerced variables; never throws. */
  call(variables: JsonObject, context: unknown): Promise<Settled>;
  /** The data graphql-js would answer for a settled call, or null where graphql-js must complete it. */
  data(settled: Settled): Record<string, unknown> | null;
  /**
   * The whole response to that data as JSON bytes, where it is always the same (a Boolean result): made
   * once, as the bytes of a cached answer are, instead of serialised for every write. Null otherwise.
   */
  answer(settled: Settled): Buffer | null;
}

/**
 * The direct run of `operation`, or null when it is not one: a mutation selecting exactly one root field,
 * with no directives, no sub-selection and every argument a variable (none left to a default), whose type is
 * Boolean or String and whose resolver takes (args, context) only.
 */
export function directMutation(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  rootValue: Record<string, unknown>,
): DirectMutation | null {
  if (operation.operation !== 'mutation' || (operation.directives?.length ?? 0) > 0) return null;
  const selections = operation.selectionSet.selections;
  const [node] = selections;
  if (selections.length !== 1 || node?.kind !== Kind.FIELD) return null;
  if ((node.directives?.length ?? 0) > 0 || node.selectionSet !== undefined) return null;
  const field = node.name.value;
  const definition = schema.getMutationType()?.getFields()[field];
  const resolve = Object.hasOwn(rootValue, field) ? rootValue[field] : undefined;
  if (definition === undefined || typeof resolve !== 'function' || resolve.length > 2) return null;
  const nullable = definition.type instanceof GraphQLNonNull ? definition.type.ofType : definition.type;
  // graphql-js passes a boolean (or a string) of these types through serialize unchanged.
  const kind = nullable === GraphQLBoolean ? 'boolean' : nullable === GraphQLString ? 'string' : null;
  if (kind === null) return null;
  const given = new Map((node.arguments ?? []).map((argument) => [argument.name.value, argument.value]));
  const args: [argument: string, variable: string][] = [];
  for (const argument of definition.args) {
    const value = given.get(argument.name);
    if (value === undefined) {
      if (argument.defaultValue !== undefined) return null;
      continue;
    }
    if (value.kind !== Kind.VARIABLE) return null;
    args.push([argument.name, value.name.value]);
  }
  if (args.length !== given.size) return null;
  const key = node.alias?.value ?? field;
  const resolver = resolve as Resolver;
  // DataHub's envelope (data, then an empty extensions) of each Boolean answer.
  const answers = new Map(
    kind === 'boolean'
      ? [true, false].map((value) => [value, Buffer.from(JSON.stringify({ data: { [key]: value }, extensions: {} }))])
      : [],
  );
  return {
    field,
    async call(variables, context) {
      // As graphql-js: a variable left out is an argument left out, one given as null an argument of null.
      const values: Record<string, unknown> = {};
      for (const [argument, variable] of args)
        if (Object.hasOwn(variables, variable)) values[argument] = variables[variable];
      try {
        return { ok: true, value: await resolver.call(rootValue, values, context) };
      } catch (error) {
        return { ok: false, error };
      }
    },
    data(settled) {
      return settled.ok && typeof settled.value === kind ? { [key]: settled.value } : null;
    },
    answer(settled) {
      return (settled.ok && answers.get(settled.value as boolean)) || null;
    },
  };
}

/** A root value whose only resolver gives back a settled call's outcome, for graphql-js to complete. */
export function settledRoot(field: string, settled: Settled): Record<string, unknown> {
  return {
    [field]: () => {
      if (settled.ok) return settled.value;
      throw settled.error;
    },
  };
}
