// GraphQL over HTTP conformance: graphql-http's server audit suite against a real minihub, one test per
// audit. Auth stays on: the audits' fetch is wrapped to add the root bearer token (they send none).
// Every audit must pass, the MAYs too: queries over GET (5A70, D6D5, 6A70) and a 4xx for a GET mutation (9C48).

import { serverAudits, type Audit } from 'graphql-http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { startTestServer, type TestServer } from './fixtures/server.ts';

type Requirement = 'MUST' | 'SHOULD' | 'MAY';
const requirementOf = (audit: Audit): Requirement => audit.name.split(' ', 1)[0] as Requirement;

let hub: TestServer | undefined;
const authorizedFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${hub?.token ?? ''}`);
  return fetch(input, { ...init, headers });
};
// The audits read the URL lazily, once the server below has started.
const audits = serverAudits({ url: () => hub?.graphqlUrl ?? '', fetchFn: authorizedFetch });

const tally: Record<Requirement, { passed: number; total: number }> = {
  MUST: { passed: 0, total: 0 },
  SHOULD: { passed: 0, total: 0 },
  MAY: { passed: 0, total: 0 },
};

const conformance = suite('graphql-http server audits');

conformance.before(async () => {
  hub = await startTestServer();
});
conformance.after(async () => {
  await hub?.close();
  const { MUST, SHOULD, MAY } = tally;
  console.log(
    `graphql-http audit: ${MUST.passed}/${MUST.total} MUST, ${SHOULD.passed}/${SHOULD.total} SHOULD, ${MAY.passed}/${MAY.total} MAY`,
  );
});

for (const audit of audits) {
  const requirement = requirementOf(audit);
  conformance(`${audit.id} ${audit.name}`, async () => {
    const result = await audit.fn();
    const counts = tally[requirement];
    counts.total += 1;
    if (result.status === 'ok') {
      counts.passed += 1;
      return;
    }
    assert.unreachable(`${audit.id} ${audit.name}: ${result.reason} (HTTP ${result.response.status})`);
  });
}

conformance('runs every audit graphql-http defines: 13 MUST, 23 SHOULD, 25 MAY', () => {
  const count = (requirement: Requirement) => audits.filter((audit) => requirementOf(audit) === requirement).length;
  assert.equal([count('MUST'), count('SHOULD'), count('MAY')], [13, 23, 25]);
});

conformance.run();
