// The help texts, written by hand so they show every default; printed only on a command's stdout.

export const MAIN_HELP = `minihub: a local metadata catalogue that speaks DataHub's GraphQL dialect

Usage
  minihub serve [options]              run the catalogue over HTTP (POST /api/graphql)
  minihub ingest FILE... [--data DIR]  load DataHub MCE/MCP files into the data directory
  minihub export [--data DIR] [--out FILE]
                                       write the catalogue as a DataHub MCP file
  minihub push --to URL [--token T] [--since TIME] [--data DIR]
                                       send the catalogue to a DataHub GMS (or a minihub)
  minihub token create --user NAME     issue a personal access token (prints only the token)
  minihub token list | revoke ID       list or revoke stored access tokens
  minihub user add NAME --role ROLE    add a user (roles: Admin, Editor, Reader)
  minihub user list | role NAME ROLE   list users, or change a user's role
  minihub compact [--data DIR]         rewrite the log as the current state
  minihub --help | --version

--debug (anywhere on the line) prints the stack of an error after its one-line message.
token, user, export, push and compact need a data directory holding a catalogue (catalogue.jsonl);
serve and ingest make one when it is missing (token and user too, with --create).

Run "minihub COMMAND --help" for a command's options.
From a checkout, "npx tsx src/cli.ts" runs minihub.

Environment: MINIHUB_PORT, MINIHUB_HOST, MINIHUB_DATA stand in for --port, --host, --data
(PORT and HOST too; a flag wins over MINIHUB_*, which wins over PORT and HOST).

Exit codes: 0 success, 1 failure (the error is printed on one line), 2 usage error.
`;

export const SERVE_HELP = `Usage: minihub serve [options]

  -p, --port PORT        port to listen on; 0 picks a free one    (default: 8080, env MINIHUB_PORT or PORT)
      --host HOST        address to bind                          (default: 127.0.0.1, env MINIHUB_HOST or HOST)
      --data DIR         data directory holding catalogue.jsonl   (default: data, env MINIHUB_DATA)
      --memory           keep everything in memory; nothing is written to disk (not with --data)
      --seed FILE        DataHub file to load when the catalogue is empty; repeatable
      --no-auth          no tokens: every request acts as the root user "datahub"
      --new-signing-key  make a new signing.key when it is missing though stored tokens
                         need it; those tokens then fail with 401 (without this flag
                         the start is refused; a key that exists is kept)
      --cors-origin ORIGIN
                         let browser pages from ORIGIN (scheme://host[:port], or * for any)
                         call /api/graphql: preflights answered, Access-Control-Allow-Origin
                         sent; repeatable                         (default: none, no CORS)
      --max-body-bytes N largest accepted request body            (default: 1048576)
      --limit NAME=N     change a request limit; repeatable. NAME: maxBodyBytes, maxRestBodyBytes,
                         maxQueryLength, maxTokens, maxDepth, maxFields, maxAliases, maxVariablesDepth,
                         maxTextBytes, requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs,
                         maxConnections (defaults in src/limits.ts)
  -q, --quiet            no per-request log lines (the banner and errors still print)
  -h, --help             this text

The first banner line is always "minihub listening on http://HOST:PORT" with the bound port.
SIGINT or SIGTERM closes the server cleanly; a second signal exits at once.
`;

export const INGEST_HELP = `Usage: minihub ingest FILE... [--data DIR]

Loads DataHub's file format: a JSON array (or one object) of MetadataChangeEvents and
MetadataChangeProposals, or JSON lines. Ingesting the same file again changes nothing.
The server must not be running on the same data directory.

      --data DIR   data directory                               (default: data, env MINIHUB_DATA)
  -h, --help       this text
`;

export const EXPORT_HELP = `Usage: minihub export [--data DIR] [--out FILE]

Writes the whole catalogue, edits included, as a DataHub file: a JSON array of
MetadataChangeProposals, one UPSERT per aspect ({"entityType", "entityUrn", "changeType",
"aspectName", "aspect": {"json": {...}}}), which DataHub's "file" source loads
("datahub ingest -c recipe.yml") and "minihub ingest" reads back. Access tokens are never
exported. Without --out the JSON goes to stdout and the one-line summary to stderr; with
--out the file is written beside FILE and renamed over it, so it is never half written.
The server must not be running on the same data directory.

      --data DIR   data directory                               (default: data, env MINIHUB_DATA)
  -o, --out FILE   file to write                                (default: stdout)
  -h, --help       this text
`;

export const TOKEN_HELP = `Usage: minihub token create --user NAME [--name TEXT] [--expires WHEN] [--data DIR]
       minihub token list [--user NAME] [--data DIR]
       minihub token revoke ID [--data DIR]

create issues a DataHub-style personal access token for an existing user and prints only the
token, so that TOKEN=$(minihub token create --user datahub) works; the data directory keeps only
a keyed hash of it. list shows every stored token (never the token itself) with its ID; revoke ID
makes that token fail with 401 from now on. The server must not be running on the same data
directory; a running server offers the same through createAccessToken, listAccessTokens and
revokeAccessToken.

      --user NAME      create: the user the token acts as ("datahub" always exists)
                       list: only that user's tokens
      --name TEXT      a name to recognise the token by         (default: "minihub cli token")
      --expires WHEN   lifetime: 90s, 15m, 1h, 30d, or never     (default: 30d)
      --data DIR       data directory                           (default: data, env MINIHUB_DATA)
      --create         make the data directory and an empty catalogue if there is none
                       (without it a missing one is refused, so a typo creates nothing)
      --new-signing-key
                       create, revoke: make a new signing.key when it is missing though
                       stored tokens need it (those tokens then fail with 401)
  -h, --help           this text
`;

export const USER_HELP = `Usage: minihub user add NAME [--role ROLE] [--data DIR]
       minihub user role NAME ROLE [--data DIR]
       minihub user list [--data DIR]

Users come from ingested corpuser entities and from "user add". Roles decide what a user's tokens
may do, as DataHub's default policies do: Admin everything; Editor edits descriptions, links and
column descriptions, and creates tags; Reader reads. A user without a role reads, makes tokens for
itself, and edits the entities it owns. ROLE is Admin, Editor, Reader or none. The root user
"datahub" is always Admin. The server must not be running on the same data directory.

      --role ROLE   add: the new user's role                    (default: none)
      --data DIR    data directory                              (default: data, env MINIHUB_DATA)
      --create      make the data directory and an empty catalogue if there is none
                    (without it a missing one is refused, so a typo creates nothing)
  -h, --help        this text
`;

export const COMPACT_HELP = `Usage: minihub compact [--data DIR]

Rewrites the log as the current state, one record per entity: a new file is written and synced
beside the old one, then renamed over it, so a crash at any step leaves the old or the new log.
A running server does this by itself once its log is four times the size of the live state.
The server must not be running on the same data directory.

      --data DIR   data directory                               (default: data, env MINIHUB_DATA)
  -h, --help       this text
`;

export const PUSH_HELP = `Usage: minihub push --to URL [--token T] [--since TIME] [--batch N] [--data DIR]

Sends the catalogue, edits included, to a DataHub GMS (or another minihub) the way DataHub's
SDK writes: POST URL/aspects?action=ingestProposalBatch with N proposals a request (each body
under 1 MB), every aspect an UPSERT, so a push can be run again and repeats nothing. Requests
refused with 429 or 5xx, or that cannot connect, are retried with backoff. Never sent: access
tokens, users' passwords (corpUserCredentials), DataHub secrets and invite tokens. A progress
line goes to stderr, the summary to stdout; a failure says how far the push got (exit 1).
The server must not be running on the same data directory.

      --to URL        the GMS: DataHub's port 8080, or its frontend's URL ending in /api/gms
      --token T       sent as "Authorization: Bearer T"   (default: env MINIHUB_TOKEN, then
                      DATAHUB_GMS_TOKEN; none without them)
      --since TIME    only aspects changed at or after TIME: an ISO date or time (2026-01-31,
                      2026-01-31T12:00:00Z) or how long ago (90s, 15m, 1h, 30d); aspects
                      removed since then are sent as DELETEs         (default: everything)
      --batch N       proposals per request                        (default: 100)
      --retries N     attempts after the first for a retryable failure (default: 3)
      --data DIR      data directory                               (default: data, env MINIHUB_DATA)
  -h, --help          this text
`;
