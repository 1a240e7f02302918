// A whole uvu test file using minihub: a seeded catalogue on a free port, one read, closed at the end.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sampleCatalogue, startServer } from '../src/index.ts';

test('reads a dataset description from a seeded minihub', async () => {
  const hub = await startServer({ seed: [sampleCatalogue] }); // port 0, in memory
  try {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
    const response = await fetch(hub.graphqlUrl, {
      method: 'POST',
      headers: { Authorization: `Bearer ${hub.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: `{ dataset(urn: "${urn}") { properties { description } } }` }),
    });
    const { data } = await response.json();
    assert.match(data.dataset.properties.description, /One row per order/);
  } finally {
    await hub.close();
  }
});

test.run();
