// Real clients against a running minihub: graphql-request's GraphQLClient and urql's Client from npm,
// and raw fetch calls sending DataHub's documented request bodies unchanged. Nothing here goes through test helpers
// that could paper over a difference in what an ordinary client sends or expects.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ClientError, GraphQLClient } from 'graphql-request';
import { cacheExchange, Client as UrqlClient, fetchExchange } from '@urql/core';

import { DOCS_UPDATE_DATASET } from './fixtures/datahub-docs.ts';
import { BOOTSTRAP, bootstrapAvailable, SAMPLE, startTestServer, type TestServer } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';

// DataHub's own documents: the web app's mutations (datahub-web-react/src/graphql), sent with variables.
const UPDATE_DATASET = `mutation updateDataset($urn: String!, $input: DatasetUpdateInput!) {
    updateDataset(urn: $urn, input: $input) {
        urn
    }
}`;
const UPDATE_DESCRIPTION = `mutation updateDescription($input: DescriptionUpdateInput!) {
    updateDescription(input: $input)
}`;
const CREATE_TAG = `mutation createTag($input: CreateTagInput!) {
    createTag(input: $input)
}`;
const READ_DATASET = `query getDataset($urn: String!) {
  dataset(urn: $urn) {
    properties { description }
    editableProperties { description }
    institutionalMemory { elements { url label } }
    schemaMetadata { fields { fieldPath description } }
    editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description } }
  }
}`;

// descriptions.md's read query, exactly as the docs print it.
const DOCS_READ = `query {
  dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)") {
    properties {
      description
    }
  }
}`;

interface DatasetRead {
  dataset: {
    properties: { description: string | null } | null;
    editableProperties: { description: string | null } | null;
    institutionalMemory: { elements: { url: string; label: string }[] } | null;
    schemaMetadata: { fields: { fieldPath: string; description: string | null }[] } | null;
    editableSchemaMetadata: { editableSchemaFieldInfo: { fieldPath: string; description: string | null }[] } | null;
  } | null;
}

/** Runs `call` expecting graphql-request to throw its ClientError, and returns it. */
async function clientError(call: () => Promise<unknown>): Promise<ClientError> {
  let caught: unknown = 'no error';
  try {
    await call();
  } catch (error) {
    caught = error;
  }
  assert.instance(caught, ClientError, `expected a ClientError, got ${String(caught)}`);
  return caught as ClientError;
}

const withBootstrap = bootstrapAvailable("the client tests that send DataHub's documents against bootstrap_mce.json");

// ---

type ClientContext = { hub: TestServer; client: GraphQLClient };
const request = suite<ClientContext>('graphql-request GraphQLClient');

request.before(async (context) => {
  context.hub = await startTestServer({ seed: withBootstrap ? [SAMPLE, BOOTSTRAP] : [SAMPLE] });
  context.client = new GraphQLClient(context.hub.graphqlUrl, {
    headers: { Authorization: `Bearer ${context.hub.token}` },
  });
});
request.after(async ({ hub }) => hub?.close());

if (withBootstrap) {
  request("runs the DataHub docs' read query unchanged and gets the docs' answer", async ({ client }) => {
    const data = await client.request<DatasetRead>(DOCS_READ);
    assert.equal(data, {
      dataset: { properties: { description: 'table containing all the users deleted on a single day' } },
    });
  });
}

request('reads a dataset, its links and its columns with variables', async ({ client }) => {
  const { dataset } = await client.request<DatasetRead>(READ_DATASET, { urn: ORDERS });
  assert.match(dataset?.properties?.description ?? '', /One row per order/);
  assert.is(dataset?.editableProperties, null);
  assert.is(dataset?.schemaMetadata?.fields[0]?.fieldPath, 'order_id');
});

request('sets a dataset description and a link with updateDataset and variables', async ({ client }) => {
  const description = '## Orders\nOne row per order.\n\n* paid orders only\n* amounts in €';
  const data = await client.request<{ updateDataset: { urn: string } }>(UPDATE_DATASET, {
    urn: ORDERS,
    input: {
      editableProperties: { description },
      institutionalMemory: {
        elements: [
          { author: 'urn:li:corpuser:alice', url: 'https://wiki.example.com/orders', description: 'Orders runbook' },
        ],
      },
    },
  });
  assert.equal(data, { updateDataset: { urn: ORDERS } });
  const { dataset } = await client.request<DatasetRead>(READ_DATASET, { urn: ORDERS });
  assert.is(dataset?.editableProperties?.description, description);
  assert.is(dataset?.properties?.description, description);
  assert.equal(dataset?.institutionalMemory?.elements.at(-1), {
    url: 'https://wiki.example.com/orders',
    label: 'Orders runbook',
  });
});

request('sets a column description with updateDescription and variables', async ({ client }) => {
  const input = {
    description: 'Order number, unique per shop.',
    resourceUrn: ORDERS,
    subResource: 'order_id',
    subResourceType: 'DATASET_FIELD',
  };
  assert.equal(await client.request(UPDATE_DESCRIPTION, { input }), { updateDescription: true });
  const { dataset } = await client.request<DatasetRead>(READ_DATASET, { urn: ORDERS });
  assert.is(dataset?.schemaMetadata?.fields[0]?.description, 'Order number, unique per shop.');
  assert.equal(dataset?.editableSchemaMetadata?.editableSchemaFieldInfo, [
    { fieldPath: 'order_id', description: 'Order number, unique per shop.' },
  ]);
});

request(
  "creates a tag, and a second createTag surfaces as ClientError with DataHub's extensions",
  async ({ client }) => {
    const input = {
      id: 'client-deprecated',
      name: 'Deprecated',
      description: 'Having this tag means this column or table is deprecated.',
    };
    assert.equal(await client.request(CREATE_TAG, { input }), { createTag: 'urn:li:tag:client-deprecated' });
    const error = await clientError(() => client.request(CREATE_TAG, { input }));
    assert.is(error.response.status, 200, 'GraphQL failures are HTTP 200, as in DataHub');
    assert.is(error.response.errors?.length, 1);
    const [first] = error.response.errors ?? [];
    assert.is(first?.message, 'This Tag already exists!');
    assert.equal(first?.path, ['createTag']);
    assert.equal(first?.extensions, { code: 400, type: 'BAD_REQUEST', classification: 'DataFetchingException' });
    assert.equal(error.response.data, { createTag: null });
    assert.match(error.message, /This Tag already exists!/);
  },
);

request('surfaces a refused privilege, a validation error and a missing token as ClientError', async ({ hub }) => {
  const reader = new GraphQLClient(hub.graphqlUrl, {
    headers: { Authorization: `Bearer ${await hub.createToken('carol')}` },
  });
  const denied = await clientError(() => reader.request(CREATE_TAG, { input: { id: 'carol-tag', name: 'x' } }));
  assert.is(
    denied.response.errors?.[0]?.message,
    'Unauthorized to perform this action. Please contact your DataHub administrator.',
  );
  assert.equal(denied.response.errors?.[0]?.extensions, {
    code: 403,
    type: 'UNAUTHORIZED',
    classification: 'DataFetchingException',
  });

  const client = new GraphQLClient(hub.graphqlUrl, { headers: { Authorization: `Bearer ${hub.token}` } });
  const invalid = await clientError(() => client.request('{ dataset(urn: "x") { noSuchField } }'));
  assert.is(invalid.response.errors?.[0]?.extensions?.classification, 'ValidationError');

  const anonymous = new GraphQLClient(hub.graphqlUrl);
  const refused = await clientError(() => anonymous.request(READ_DATASET, { urn: ORDERS }));
  assert.is(refused.response.status, 401);
  assert.is(refused.response.errors?.[0]?.extensions?.reason, 'missing');
});

request.run();

// ---

type UrqlContext = { hub: TestServer; lines: string[]; client: UrqlClient };
const urql = suite<UrqlContext>('urql Client with its default options');

urql.before(async (context) => {
  context.lines = [];
  context.hub = await startTestServer({ seed: [SAMPLE], logRequest: (line) => context.lines.push(line) });
  // Only what every urql user must give: the URL, the exchanges (urql 4+ has no default list) and the token.
  // preferGetMethod stays at urql's default, 'within-url-limit': queries go as GET.
  context.client = new UrqlClient({
    url: context.hub.graphqlUrl,
    exchanges: [cacheExchange, fetchExchange],
    fetchOptions: { headers: { Authorization: `Bearer ${context.hub.token}` } },
  });
});
urql.after(async ({ hub }) => hub?.close());

urql('runs a query with variables, sent as GET, and gets the data', async ({ client, lines }) => {
  lines.length = 0;
  const result = await client.query<DatasetRead>(READ_DATASET, { urn: ORDERS }).toPromise();
  assert.is(result.error, undefined, String(result.error));
  assert.match(result.data?.dataset?.properties?.description ?? '', /One row per order/);
  assert.is(result.data?.dataset?.schemaMetadata?.fields[0]?.fieldPath, 'order_id');
  assert.match(lines.join('\n'), /^GET \/api\/graphql 200 .* getDataset$/m, 'urql sent the query as GET');
});

urql(
  'runs a mutation (urql sends it as POST) and reads the change back with a fresh request',
  async ({ client, lines }) => {
    lines.length = 0;
    const input = { id: 'urql-made', name: 'Made by urql' };
    const created = await client.mutation<{ createTag: string }>(CREATE_TAG, { input }).toPromise();
    assert.is(created.error, undefined, String(created.error));
    assert.is(created.data?.createTag, 'urn:li:tag:urql-made');
    assert.match(lines.join('\n'), /^POST \/api\/graphql 200 .* createTag$/m);
    const read = await client
      .query(
        'query tag($urn: String!) { tag(urn: $urn) { properties { name } } }',
        { urn: 'urn:li:tag:urql-made' },
        { requestPolicy: 'network-only' },
      )
      .toPromise();
    assert.equal(read.data?.tag?.properties, { name: 'Made by urql', __typename: 'TagProperties' });
  },
);

urql('reports a missing token as a network error carrying the 401', async ({ hub }) => {
  const anonymous = new UrqlClient({ url: hub.graphqlUrl, exchanges: [fetchExchange] });
  const result = await anonymous.query('{ me { corpUser { username } } }', {}).toPromise();
  assert.is(result.data, undefined);
  assert.match(result.error?.message ?? '', /the request has no Authorization header/);
  assert.is((result.error?.response as Response | undefined)?.status, 401);
});

urql.run();

// ---

type FetchContext = { hub: TestServer };
const raw = suite<FetchContext>("raw fetch, as DataHub's docs send requests");

/** POSTs `body` exactly as the docs' curl commands do: a bearer token and JSON, nothing else. */
async function post(
  hub: TestServer,
  body: string,
): Promise<{ status: number; contentType: string | null; json: unknown }> {
  const response = await fetch(hub.graphqlUrl, {
    method: 'POST',
    headers: { Authorization: `Bearer ${hub.token}`, 'Content-Type': 'application/json' },
    body,
  });
  return { status: response.status, contentType: response.headers.get('content-type'), json: await response.json() };
}

/** The body the docs send for a document: `{"query": ..., "variables": {}}`. */
function docsBody(query: string): string {
  return JSON.stringify({ query, variables: {} });
}

raw.before(async (context) => {
  if (withBootstrap) context.hub = await startTestServer({ seed: [BOOTSTRAP] });
});
raw.after(async ({ hub }) => hub?.close());

if (withBootstrap) {
  raw(
    "answers descriptions.md's curl body, byte for byte as the docs send it, with the docs' answer",
    async ({ hub }) => {
      const body = String.raw`{ "query": "query { dataset(urn: \"urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)\") { properties { description } } }", "variables":{}}`;
      const reply = await post(hub, body);
      assert.is(reply.status, 200);
      assert.match(reply.contentType ?? '', /^application\/json/);
      assert.equal(reply.json, {
        data: { dataset: { properties: { description: 'table containing all the users deleted on a single day' } } },
        extensions: {},
      });
    },
  );

  raw("runs descriptions.md's updateDataset and updateDescription, then reads the edits back", async ({ hub }) => {
    const updateDataset = DOCS_UPDATE_DATASET;
    assert.equal((await post(hub, docsBody(updateDataset))).json, {
      data: { updateDataset: { urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_created,PROD)' } },
      extensions: {},
    });
    const updateDescription = `mutation updateDescription {
  updateDescription(
    input: {
      description: "Name of the user who was deleted. This description is updated via GrpahQL.",
      resourceUrn:"urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)",
      subResource: "user_name",
      subResourceType:DATASET_FIELD
    }
  )
}`;
    assert.equal((await post(hub, docsBody(updateDescription))).json, {
      data: { updateDescription: true },
      extensions: {},
    });

    const created = await post(
      hub,
      docsBody(
        '{ dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_created,PROD)") { editableProperties { description } institutionalMemory { elements { url label } } } }',
      ),
    );
    assert.equal(created.json, {
      data: {
        dataset: {
          editableProperties: {
            description:
              '## The Real Estate Sales Dataset\nThis is a really important Dataset that contains all the relevant information about sales that have happened organized by address.\n',
          },
          institutionalMemory: {
            elements: [
              { url: 'https://www.linkedin.com', label: 'Sample doc' },
              { url: 'https://wikipedia.com/real_estate', label: 'This is the definition of what real estate means' },
            ],
          },
        },
      },
      extensions: {},
    });
    const deleted = (
      await post(
        hub,
        docsBody(`query {
  dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)") {
    schemaMetadata {
      fields {
        fieldPath
        description
      }
    }
  }
}`),
      )
    ).json as { data: DatasetRead };
    assert.equal(deleted.data.dataset?.schemaMetadata?.fields[0], {
      fieldPath: 'user_name',
      description: 'Name of the user who was deleted. This description is updated via GrpahQL.',
    });
  });

  raw(
    "runs tags.md's createTag, answers a repeat with DataHub's error shape, and reads the Legacy tag as the docs show",
    async ({ hub }) => {
      const createTag = `mutation createTag {
    createTag(input:
    {
      name: "Deprecated",
      id: "deprecated",
      description: "Having this tag means this column or table is deprecated."
    })
}`;
      assert.equal((await post(hub, docsBody(createTag))).json, {
        data: { createTag: 'urn:li:tag:deprecated' },
        extensions: {},
      });
      const again = await post(hub, docsBody(createTag));
      assert.is(again.status, 200);
      const { errors, data, extensions } = again.json as {
        errors: { message: string; path: string[]; extensions: object }[];
        data: object;
        extensions: object;
      };
      assert.is(errors.length, 1);
      assert.is(errors[0]?.message, 'This Tag already exists!');
      assert.equal(errors[0]?.path, ['createTag']);
      assert.equal(errors[0]?.extensions, { code: 400, type: 'BAD_REQUEST', classification: 'DataFetchingException' });
      assert.equal(data, { createTag: null });
      assert.equal(extensions, {});

      const legacy = await post(
        hub,
        docsBody(`query {
  dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)") {
    tags { tags { tag { name urn properties { description colorHex } } } }
  }
}`),
      );
      assert.equal(legacy.json, {
        data: {
          dataset: {
            tags: {
              tags: [
                {
                  tag: {
                    name: 'Legacy',
                    urn: 'urn:li:tag:Legacy',
                    properties: { description: 'Indicates the dataset is no longer supported', colorHex: null },
                  },
                },
              ],
            },
          },
        },
        extensions: {},
      });
    },
  );
}

raw.run();
