// The searchable text fields of a document and their weights: the one table ranking reads.

/**
 * Weight per field, DataHub's @Searchable boostScore as the guide: an entity's name (and qualified name)
 * 10, description and other text 1 (DataHub's default), tags 0.5. Column text is the lowest here, below
 * DataHub's fieldPaths 5.0, so a dataset whose name matches ranks above one where only a column does.
 */
export const FIELD_WEIGHTS = {
  name: 10,
  qualifiedName: 10,
  /** The URN's own id (a dataset's name part, a user's username): DataHub indexes its key aspect too. */
  id: 4,
  description: 1,
  tags: 0.5,
  platform: 1,
  origin: 0.5,
  container: 1,
  owners: 1,
  typeNames: 1,
  customProperties: 0.5,
  /** Labels of links (institutionalMemory), which DataHub does not search; low, as extra context. */
  links: 0.5,
  fieldPaths: 0.4,
  fieldDescriptions: 0.2,
} as const;

export type TextField = keyof typeof FIELD_WEIGHTS;

export const TEXT_FIELDS = Object.keys(FIELD_WEIGHTS) as TextField[];

/** A document's text, field by field (an absent field is an empty string). */
export type DocumentText = Record<TextField, string>;
