// Imported first by the CLI: graphql-js picks its production code paths at load time when
// NODE_ENV is "production", skipping development-only checks that cost ~10% of every request.
// An explicit NODE_ENV is left alone; the library never sets it (it is the embedding process's call).

process.env.NODE_ENV ??= 'production';
