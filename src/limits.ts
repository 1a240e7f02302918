// Every limit minihub puts on a request, as named defaults that ServerOptions.limits (and the CLI's
// --limit NAME=VALUE) can change. Each one keeps a hostile or broken client from taking the process down.

/**
 * Every limit minihub puts on a request; ServerOptions.limits changes any of them.
 * @example
 * const limits: Partial<Limits> = { maxDepth: 30, requestTimeoutMs: 5_000 };
 * const hub = await startServer({ limits });
 */
export interface Limits {
  /** Request body bytes; larger answers 413. */
  maxBodyBytes: number;
  /**
   * Request body bytes on DataHub's REST endpoints (/aspects, /entities), read only once the token is
   * accepted: DataHub's SDK packs a batch of proposals into bodies of up to about 15 MB.
   */
  maxRestBodyBytes: number;
  /** Characters of the GraphQL document; longer answers 400. */
  maxQueryLength: number;
  /** Lexical tokens of the document (graphql-js parse maxTokens); more is a syntax error. */
  maxTokens: number;
  /** Nesting of selection sets, fragments expanded; deeper is a validation error. */
  maxDepth: number;
  /** Field selections per operation, fragments expanded as often as they are spread. */
  maxFields: number;
  /** Aliased fields per operation. */
  maxAliases: number;
  /** Nesting of the variables object; deeper answers 400. */
  maxVariablesDepth: number;
  /** Bytes of one description, name or label written by a mutation. */
  maxTextBytes: number;
  /** Time to receive a whole request (headers and body); then 408. */
  requestTimeoutMs: number;
  /** Time to receive the request headers; then 408. */
  headersTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /** Open connections; more are refused until some close. */
  maxConnections: number;
}

/**
 * The limit each request gets unless ServerOptions.limits says otherwise.
 * @example
 * const hub = await startServer({ limits: { maxBodyBytes: DEFAULT_LIMITS.maxBodyBytes * 4 } });
 */
export const DEFAULT_LIMITS: Readonly<Limits> = {
  maxBodyBytes: 1024 * 1024,
  maxRestBodyBytes: 16 * 1024 * 1024,
  maxQueryLength: 100_000,
  maxTokens: 10_000,
  maxDepth: 20,
  maxFields: 10_000,
  maxAliases: 100,
  maxVariablesDepth: 20,
  maxTextBytes: 256 * 1024,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_000,
};

export const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as (keyof Limits)[];

export function resolveLimits(overrides: Partial<Limits> = {}): Limits {
  const limits = { ...DEFAULT_LIMITS, ...overrides };
  for (const name of LIMIT_NAMES) {
    const value = limits[name];
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new RangeError(`limit ${name} must be a positive whole number, not ${value}`);
  }
  return limits;
}
