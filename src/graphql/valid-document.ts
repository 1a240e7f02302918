// A query's text to its parsed and validated document, or the errors that refuse it: parse within maxTokens,
// then the cost rule alone, then graphql-js's own rules. Documents that pass are kept once per process (the
// schema is one per process too), keyed by the limits they passed under. It runs nothing.

import { GraphQLError, parse, specifiedRules, validate, type DocumentNode, type ValidationRule } from 'graphql';

import type { Limits } from '../limits.ts';
import { costRule } from './cost-rule.ts';
import { DOCUMENT_CACHE, DocumentCache } from './document-cache.ts';
import type { ErrorPhase } from './format-error.ts';
import { minihubSchema } from './schema.ts';

/** Why a query's document cannot run: it did not parse, or did not pass validation. */
export interface RefusedDocument {
  errors: readonly GraphQLError[];
  phase: ErrorPhase;
  /** The document, when it parsed: the request log names a refused request by its first root field. */
  document: DocumentNode | null;
}

// Shared by every server of the process: a suite that starts a fresh minihub per test validates each of its
// queries once, not once per server. Its documents are the servers' own caches' documents, not copies.
const validated = new DocumentCache<DocumentNode>(DOCUMENT_CACHE);

/** What parse and validation depend on besides the schema, as the key's prefix. */
export function rulesKey(limits: Pick<Limits, 'maxTokens' | 'maxDepth' | 'maxFields' | 'maxAliases'>): string {
  return `${limits.maxTokens} ${limits.maxDepth} ${limits.maxFields} ${limits.maxAliases}\n`;
}

/**
 * For tests only: remembers `document` as valid for `query` under `limits`, as a pass of check() does, so a
 * test can tell that a server runs the process's document. It stays for the process's life: use a text no
 * other test sends.
 */
export function rememberValid(limits: Limits, query: string, document: DocumentNode): void {
  validated.set(rulesKey(limits) + query, document);
}

export class DocumentValidator {
  readonly #maxTokens: number;
  readonly #costRules: readonly ValidationRule[];
  readonly #rules: string;

  constructor(limits: Limits) {
    this.#maxTokens = limits.maxTokens;
    this.#costRules = [costRule(limits)];
    this.#rules = rulesKey(limits);
  }

  /** The query's document once it parsed and passed validation (under these limits, by any server), or why not. */
  check(query: string): DocumentNode | RefusedDocument {
    const key = this.#rules + query;
    const known = validated.get(key);
    if (known !== undefined) return known;
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: this.#maxTokens });
    } catch (error) {
      return { errors: [this.#syntaxError(error)], phase: 'syntax', document: null };
    }
    const errors = this.#validate(document);
    if (errors.length > 0) return { errors, phase: 'validation', document };
    validated.set(key, document);
    return document;
  }

  #syntaxError(error: unknown): GraphQLError {
    if (error instanceof GraphQLError && error.message.includes(' tokens. Parsing aborted.')) {
      return new GraphQLError(
        `Syntax Error: the document has more than ${this.#maxTokens} tokens (the maxTokens limit).`,
        { source: error.source, positions: error.positions },
      );
    }
    if (error instanceof GraphQLError) return error;
    // graphql-js parses recursively: a document nested deep enough within maxTokens exhausts the stack.
    if (error instanceof RangeError) return new GraphQLError('Syntax Error: the document nests too deeply.');
    throw error;
  }

  // The cost rule runs alone first: graphql-js's own rules include quadratic ones, which a document
  // over the limits must not get to run. A chain of fragments deep enough to exhaust the stack in
  // either pass is a validation error too, never a crash.
  #validate(document: DocumentNode): readonly GraphQLError[] {
    const schema = minihubSchema();
    try {
      const over = validate(schema, document, this.#costRules);
      return over.length > 0 ? over : validate(schema, document, specifiedRules);
    } catch (error) {
      if (error instanceof RangeError)
        return [new GraphQLError('The document nests fragments too deeply to validate.')];
      throw error;
    }
  }
}
