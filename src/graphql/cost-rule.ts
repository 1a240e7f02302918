// A validation rule bounding what one operation may ask for: selection depth, field selections and
// aliases, counted with fragments expanded. It runs once per document (validated documents are cached).

import { GraphQLError, Kind, type ASTVisitor, type SelectionSetNode, type ValidationContext } from 'graphql';

export interface CostLimits {
  maxDepth: number;
  maxFields: number;
  maxAliases: number;
}

interface Cost {
  depth: number;
  fields: number;
  aliases: number;
}

export function costRule(limits: CostLimits): (context: ValidationContext) => ASTVisitor {
  return (context) => {
    // A fragment's cost is the same wherever it is spread, so it is measured once per document.
    const fragmentCosts = new Map<string, Cost>();

    const measure = (selectionSet: SelectionSetNode, depth: number, visiting: Set<string>): Cost => {
      const cost: Cost = { depth, fields: 0, aliases: 0 };
      // Past the limit the answer is known; stopping here also bounds the recursion.
      if (depth > limits.maxDepth) return cost;
      for (const selection of selectionSet.selections) {
        let inner: Cost | undefined;
        if (selection.kind === Kind.FIELD) {
          cost.fields++;
          if (selection.alias !== undefined) cost.aliases++;
          if (selection.selectionSet !== undefined) inner = measure(selection.selectionSet, depth + 1, visiting);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          inner = measure(selection.selectionSet, depth, visiting);
        } else {
          const name = selection.name.value;
          const fragment = context.getFragment(name);
          // Unknown and cyclic fragments are reported by graphql-js's own rules.
          if (fragment == null || visiting.has(name)) continue;
          let relative = fragmentCosts.get(name);
          if (relative === undefined) {
            visiting.add(name);
            relative = measure(fragment.selectionSet, 0, visiting);
            visiting.delete(name);
            fragmentCosts.set(name, relative);
          }
          inner = { depth: depth + relative.depth, fields: relative.fields, aliases: relative.aliases };
        }
        if (inner !== undefined) {
          cost.depth = Math.max(cost.depth, inner.depth);
          cost.fields += inner.fields;
          cost.aliases += inner.aliases;
        }
      }
      return cost;
    };

    return {
      OperationDefinition(operation) {
        const cost = measure(operation.selectionSet, 1, new Set());
        const name = operation.name === undefined ? 'The operation' : `Operation "${operation.name.value}"`;
        const over: string[] = [];
        if (cost.depth > limits.maxDepth) over.push(`nests selections more than ${limits.maxDepth} deep`);
        if (cost.fields > limits.maxFields)
          over.push(`selects ${cost.fields} fields; the limit is ${limits.maxFields}`);
        if (cost.aliases > limits.maxAliases)
          over.push(`uses ${cost.aliases} aliases; the limit is ${limits.maxAliases}`);
        if (over.length > 0)
          context.reportError(new GraphQLError(`${name} ${over.join(', and ')}.`, { nodes: operation }));
      },
    };
  };
}
