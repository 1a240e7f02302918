// Where the bundled sample catalogue is, resolved from this module so it holds in a checkout (src/) and
// in an installed package (dist/) alike: both sit beside data/. It only names the file; it never reads it.

import { fileURLToPath } from 'node:url';

/**
 * The absolute path of the sample catalogue minihub ships (`data/sample-catalogue.json`: five datasets,
 * a container, two tags and three users, in DataHub's file format), for `seed`.
 * @example
 * const hub = await startServer({ seed: [sampleCatalogue] });
 */
export const sampleCatalogue: string = fileURLToPath(new URL('../data/sample-catalogue.json', import.meta.url));
