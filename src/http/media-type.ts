// Picks the media type of a /api/graphql answer from the request's Accept header (GraphQL over HTTP).
// It only chooses; which status codes go with each media type is decided in graphql-handler.ts.

export const GRAPHQL_RESPONSE = 'application/graphql-response+json';
export const JSON_MEDIA = 'application/json';
export type ResponseMediaType = typeof GRAPHQL_RESPONSE | typeof JSON_MEDIA;

/**
 * application/graphql-response+json when the client accepts it at least as much as application/json
 * (highest q wins, a tie goes to the one listed first); otherwise application/json, DataHub's type,
 * also for a missing header or one naming neither (answering 406 would break clients DataHub serves).
 */
export function responseMediaType(accept: string | undefined): ResponseMediaType {
  if (accept === undefined) return JSON_MEDIA;
  let best: ResponseMediaType = JSON_MEDIA;
  let bestQ = -1;
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const media =
      type === GRAPHQL_RESPONSE
        ? GRAPHQL_RESPONSE
        : type === JSON_MEDIA || type === 'application/*' || type === '*/*'
          ? JSON_MEDIA
          : null;
    if (media === null) continue;
    const q = qualityOf(params);
    if (q > bestQ) {
      best = media;
      bestQ = q;
    }
  }
  return bestQ > 0 ? best : JSON_MEDIA;
}

function qualityOf(params: string[]): number {
  for (const param of params) {
    const match = /^q\s*=\s*([01](?:\.\d{0,3})?)$/.exec(param);
    if (match !== null) return Number(match[1]);
  }
  return 1;
}
