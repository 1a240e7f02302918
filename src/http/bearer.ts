// The bearer-token check every handler that needs a user makes: a refused token becomes a 401 HttpError with
// the RFC 6750 challenge and the reason. It never reads a body and never echoes the token.

import type { TokenService } from '../auth/tokens.ts';
import { AuthenticationError } from '../errors.ts';
import { HttpError } from './exchange.ts';

/** The username a request acts as, or a 401 HttpError saying why its token was refused. */
export function authenticate(tokens: TokenService, header: string | undefined): string {
  try {
    return tokens.authenticate(header);
  } catch (error) {
    if (error instanceof AuthenticationError) {
      const extensions = { code: 401, type: 'UNAUTHENTICATED', reason: error.reason };
      // RFC 6750: a request without credentials gets the challenge alone, a bad token an error code too.
      const challenge =
        error.reason === 'missing' ? 'Bearer realm="minihub"' : 'Bearer realm="minihub", error="invalid_token"';
      throw new HttpError(401, error.message, { 'WWW-Authenticate': challenge }, extensions);
    }
    throw error;
  }
}
