// Schema fidelity for generated clients: minihub's enums hold exactly DataHub's values, in DataHub's order,
// so a client generated from DataHub's schema (or one sending any of DataHub's values) is not refused.
// Pure: builds the schema in process and introspects it; no server.

import { buildASTSchema, GraphQLEnumType, GraphQLObjectType, parse, validate } from 'graphql';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { minihubSchema, sdlDocument } from '../src/graphql/schema.ts';
import { FABRIC_TYPES, parseDatasetUrn } from '../src/urn.ts';
import { DOCS_UPDATE_DATASET } from './fixtures/datahub-docs.ts';

// DataHub's `enum EntityType`, in order, from datahub-graphql-core/src/main/resources/entity.graphql.
const DATAHUB_ENTITY_TYPES = [
  'DOMAIN',
  'DATASET',
  'CORP_USER',
  'CORP_GROUP',
  'DATA_PLATFORM',
  'ER_MODEL_RELATIONSHIP',
  'DASHBOARD',
  'NOTEBOOK',
  'CHART',
  'DATA_FLOW',
  'DATA_JOB',
  'TAG',
  'GLOSSARY_TERM',
  'GLOSSARY_NODE',
  'CONTAINER',
  'MLMODEL',
  'MLMODEL_GROUP',
  'MLFEATURE_TABLE',
  'MLFEATURE',
  'MLPRIMARY_KEY',
  'INGESTION_SOURCE',
  'EXECUTION_REQUEST',
  'ASSERTION',
  'DATA_PROCESS_INSTANCE',
  'DATA_PLATFORM_INSTANCE',
  'ACCESS_TOKEN',
  'TEST',
  'DATAHUB_POLICY',
  'DATAHUB_ROLE',
  'POST',
  'SCHEMA_FIELD',
  'DATAHUB_VIEW',
  'QUERY',
  'DATA_PRODUCT',
  'CUSTOM_OWNERSHIP_TYPE',
  'DATAHUB_CONNECTION',
  'INCIDENT',
  'ROLE',
  'DATA_CONTRACT',
  'STRUCTURED_PROPERTY',
  'FORM',
  'DATA_TYPE',
  'ENTITY_TYPE',
  'RESTRICTED',
  'OTHER',
  'BUSINESS_ATTRIBUTE',
];

// DataHub's GraphQL `enum FabricType`, in order, from datahub-graphql-core/src/main/resources/entity.graphql.
// (The Pegasus FabricType behind URNs, metadata-models/.../common/FabricType.pdl, has more spellings,
// e.g. PRD and SBX, that DataHub's GraphQL enum does not.)
const DATAHUB_FABRIC_TYPES = [
  'DEV',
  'TEST',
  'QA',
  'UAT',
  'EI',
  'PRE',
  'STG',
  'NON_PROD',
  'PROD',
  'CORP',
  'RVW',
  'SANDBOX',
];

function enumValues(name: string): string[] {
  const type = minihubSchema().getType(name);
  assert.instance(type, GraphQLEnumType, `${name} is an enum`);
  return (type as GraphQLEnumType).getValues().map((value) => value.name);
}

const enums = suite('schema fidelity: enums');

enums('EntityType holds exactly DataHub values, in order', () => {
  assert.equal(enumValues('EntityType'), DATAHUB_ENTITY_TYPES);
});

enums('FabricType holds exactly DataHub values, in order', () => {
  assert.equal(enumValues('FabricType'), DATAHUB_FABRIC_TYPES);
});

enums('a dataset urn origin is valid exactly when it is a FabricType value', () => {
  assert.equal([...FABRIC_TYPES], enumValues('FabricType'));
  for (const origin of enumValues('FabricType')) {
    assert.is(parseDatasetUrn(`urn:li:dataset:(urn:li:dataPlatform:hive,t,${origin})`).origin, origin);
  }
});

enums('every value of both enums is accepted as input (a variable default)', () => {
  const schema = minihubSchema();
  for (const name of ['EntityType', 'FabricType']) {
    for (const value of enumValues(name)) {
      const document = parse(`query q($v: ${name} = ${value}) { __typename }`);
      // An unused variable is a validation error of its own; keep only errors about the value.
      const errors = validate(schema, document).filter((error) => !/is never used/.test(error.message));
      assert.equal(
        errors.map((error) => error.message),
        [],
        `${name}.${value}`,
      );
    }
  }
});

enums('a DataHub documentation example still validates', () => {
  assert.equal(
    validate(minihubSchema(), parse(DOCS_UPDATE_DATASET)).map((error) => error.message),
    [],
  );
});

enums.run();

// The interfaces DataHub's own type declares, from datahub-graphql-core/src/main/resources/entity.graphql.
const DATAHUB_INTERFACES: Record<string, string[]> = {
  Dataset: ['EntityWithRelationships', 'Entity', 'BrowsableEntity', 'HasLogicalParent', 'SupportsVersions'],
  Container: ['Entity'],
  CorpUser: ['Entity'],
  CorpGroup: ['Entity'],
  Tag: ['Entity'],
  DataPlatform: ['Entity'],
  SchemaMetadata: ['Aspect'],
};

const interfaces = suite('schema fidelity: interfaces');

interfaces('the SDL files together obey every SDL rule (start-up skips this check)', () => {
  buildASTSchema(sdlDocument());
});

interfaces("each type implements DataHub's interfaces for it", () => {
  for (const [name, expected] of Object.entries(DATAHUB_INTERFACES)) {
    const type = minihubSchema().getType(name);
    assert.instance(type, GraphQLObjectType, `${name} is an object type`);
    const names = (type as GraphQLObjectType).getInterfaces().map((face) => face.name);
    assert.equal([...names].sort(), [...expected].sort(), name);
  }
});

interfaces("a client's fragment on DataHub's interfaces validates", () => {
  const document = parse(`query q($urn: String!) { dataset(urn: $urn) {
    ... on EntityWithRelationships { urn relationships(input: { types: ["Contains"], direction: INCOMING }) { total } }
    ... on BrowsableEntity { browsePaths { path } }
  } }`);
  assert.equal(
    validate(minihubSchema(), document).map((error) => error.message),
    [],
  );
});

interfaces.run();
