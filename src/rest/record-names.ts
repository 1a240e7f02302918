// The full Pegasus record name of each aspect minihub may answer over DataHub's REST protocol, as DataHub's
// PDL files (metadata-models/src/main/pegasus/com/linkedin/...) name them: GET /aspects keys an aspect's value
// by it, and the SDK looks the value up under it. One table; no behaviour beyond the lookup.

const TABLE: Record<string, string> = {
  // Datasets and their schemas.
  datasetProperties: 'com.linkedin.dataset.DatasetProperties',
  editableDatasetProperties: 'com.linkedin.dataset.EditableDatasetProperties',
  upstreamLineage: 'com.linkedin.dataset.UpstreamLineage',
  viewProperties: 'com.linkedin.dataset.ViewProperties',
  schemaMetadata: 'com.linkedin.schema.SchemaMetadata',
  editableSchemaMetadata: 'com.linkedin.schema.EditableSchemaMetadata',
  // Aspects many entity types share.
  globalTags: 'com.linkedin.common.GlobalTags',
  glossaryTerms: 'com.linkedin.common.GlossaryTerms',
  ownership: 'com.linkedin.common.Ownership',
  institutionalMemory: 'com.linkedin.common.InstitutionalMemory',
  status: 'com.linkedin.common.Status',
  deprecation: 'com.linkedin.common.Deprecation',
  subTypes: 'com.linkedin.common.SubTypes',
  browsePaths: 'com.linkedin.common.BrowsePaths',
  browsePathsV2: 'com.linkedin.common.BrowsePathsV2',
  dataPlatformInstance: 'com.linkedin.common.DataPlatformInstance',
  siblings: 'com.linkedin.common.Siblings',
  embed: 'com.linkedin.common.Embed',
  displayProperties: 'com.linkedin.common.DisplayProperties',
  forms: 'com.linkedin.common.Forms',
  structuredProperties: 'com.linkedin.structured.StructuredProperties',
  domains: 'com.linkedin.domain.Domains',
  container: 'com.linkedin.container.Container',
  // Containers, tags, platforms, glossary, domains, ownership types.
  containerProperties: 'com.linkedin.container.ContainerProperties',
  editableContainerProperties: 'com.linkedin.container.EditableContainerProperties',
  tagProperties: 'com.linkedin.tag.TagProperties',
  dataPlatformInfo: 'com.linkedin.dataplatform.DataPlatformInfo',
  glossaryTermInfo: 'com.linkedin.glossary.GlossaryTermInfo',
  glossaryNodeInfo: 'com.linkedin.glossary.GlossaryNodeInfo',
  glossaryRelatedTerms: 'com.linkedin.glossary.GlossaryRelatedTerms',
  domainProperties: 'com.linkedin.domain.DomainProperties',
  ownershipTypeInfo: 'com.linkedin.ownership.OwnershipTypeInfo',
  // Users, groups, roles, tokens.
  corpUserInfo: 'com.linkedin.identity.CorpUserInfo',
  corpUserEditableInfo: 'com.linkedin.identity.CorpUserEditableInfo',
  corpUserStatus: 'com.linkedin.identity.CorpUserStatus',
  corpUserSettings: 'com.linkedin.identity.CorpUserSettings',
  corpUserCredentials: 'com.linkedin.identity.CorpUserCredentials',
  corpGroupInfo: 'com.linkedin.identity.CorpGroupInfo',
  corpGroupEditableInfo: 'com.linkedin.identity.CorpGroupEditableInfo',
  groupMembership: 'com.linkedin.identity.GroupMembership',
  nativeGroupMembership: 'com.linkedin.identity.NativeGroupMembership',
  roleMembership: 'com.linkedin.identity.RoleMembership',
  dataHubRoleInfo: 'com.linkedin.policy.DataHubRoleInfo',
  dataHubPolicyInfo: 'com.linkedin.policy.DataHubPolicyInfo',
  dataHubAccessTokenInfo: 'com.linkedin.access.token.DataHubAccessTokenInfo',
  // Pipelines, charts, dashboards, models.
  dataFlowInfo: 'com.linkedin.datajob.DataFlowInfo',
  dataJobInfo: 'com.linkedin.datajob.DataJobInfo',
  dataJobInputOutput: 'com.linkedin.datajob.DataJobInputOutput',
  chartInfo: 'com.linkedin.chart.ChartInfo',
  dashboardInfo: 'com.linkedin.dashboard.DashboardInfo',
  mlModelProperties: 'com.linkedin.ml.metadata.MLModelProperties',
  // What a `datahub ingest` run reads and writes about itself.
  telemetryClientId: 'com.linkedin.telemetry.TelemetryClientId',
  dataHubIngestionSourceInfo: 'com.linkedin.ingestion.DataHubIngestionSourceInfo',
  dataHubExecutionRequestInput: 'com.linkedin.execution.ExecutionRequestInput',
  dataHubExecutionRequestResult: 'com.linkedin.execution.ExecutionRequestResult',
  dataHubExecutionRequestSignal: 'com.linkedin.execution.ExecutionRequestSignal',
  // Key aspects (key-aspects.ts builds them from the URN when they are not stored).
  datasetKey: 'com.linkedin.metadata.key.DatasetKey',
  tagKey: 'com.linkedin.metadata.key.TagKey',
  corpUserKey: 'com.linkedin.metadata.key.CorpUserKey',
  corpGroupKey: 'com.linkedin.metadata.key.CorpGroupKey',
  containerKey: 'com.linkedin.metadata.key.ContainerKey',
  dataPlatformKey: 'com.linkedin.metadata.key.DataPlatformKey',
  glossaryTermKey: 'com.linkedin.metadata.key.GlossaryTermKey',
  glossaryNodeKey: 'com.linkedin.metadata.key.GlossaryNodeKey',
  domainKey: 'com.linkedin.metadata.key.DomainKey',
  ownershipTypeKey: 'com.linkedin.metadata.key.OwnershipTypeKey',
  telemetryKey: 'com.linkedin.metadata.key.TelemetryKey',
  dataHubIngestionSourceKey: 'com.linkedin.metadata.key.DataHubIngestionSourceKey',
  dataHubExecutionRequestKey: 'com.linkedin.metadata.key.ExecutionRequestKey',
};

const RECORD_NAMES: ReadonlyMap<string, string> = new Map(Object.entries(TABLE));

/** `datasetProperties` → `com.linkedin.dataset.DatasetProperties`; undefined for an aspect the table lacks. */
export function recordNameOf(aspect: string): string | undefined {
  return RECORD_NAMES.get(aspect);
}
