// Where the files minihub ships beside its code are: resolved from this module, which sits one level
// below the package root in a checkout (src/) and in the build (dist/, one flat folder) alike. It only
// names the files; it never reads them.

import { fileURLToPath } from 'node:url';

/**
 * The absolute path of the sample catalogue minihub ships (`data/sample-catalogue.json`: five datasets,
 * a container, two tags and three users, in DataHub's file format), for `seed`.
 * @example
 * const hub = await startServer({ seed: [sampleCatalogue] });
 */
export const sampleCatalogue: string = fileURLToPath(new URL('../data/sample-catalogue.json', import.meta.url));

/** The folder of the vendored GraphiQL page (`public/graphiql`), which GET /api/graphiql serves. */
export const graphiqlDirectory: string = fileURLToPath(new URL('../public/graphiql/', import.meta.url));
