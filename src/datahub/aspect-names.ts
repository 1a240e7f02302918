// Maps a fully qualified aspect type (`com.linkedin[.pegasus2avro].<pkg>.<Type>`) to DataHub's aspect name.
// Pure and table-free except for the few aspects whose @Aspect name is not derived from the type name.

const PEGASUS2AVRO = 'com.linkedin.pegasus2avro.';
const PEGASUS = 'com.linkedin.';

// These @Aspect names were chosen by hand upstream and cannot be derived from the record name.
const OVERRIDES: ReadonlyMap<string, string> = new Map([
  ['com.linkedin.ml.metadata.Metrics', 'mlModelMetrics'],
  ['com.linkedin.ml.metadata.TrainingData', 'mlModelTrainingData'],
  ['com.linkedin.ml.metadata.EvaluationData', 'mlModelEvaluationData'],
  ['com.linkedin.ml.metadata.QuantitativeAnalyses', 'mlModelQuantitativeAnalyses'],
  ['com.linkedin.ml.metadata.EthicalConsiderations', 'mlModelEthicalConsiderations'],
  ['com.linkedin.ml.metadata.CaveatsAndRecommendations', 'mlModelCaveatsAndRecommendations'],
  ['com.linkedin.ml.metadata.EditableMLModelProperties', 'editableMlModelProperties'],
  ['com.linkedin.ml.metadata.EditableMLModelGroupProperties', 'editableMlModelGroupProperties'],
  ['com.linkedin.ml.metadata.EditableMLFeatureProperties', 'editableMlFeatureProperties'],
  ['com.linkedin.ml.metadata.EditableMLFeatureTableProperties', 'editableMlFeatureTableProperties'],
  ['com.linkedin.ml.metadata.EditableMLPrimaryKeyProperties', 'editableMlPrimaryKeyProperties'],
]);

/** Rewrites Avro's `com.linkedin.pegasus2avro.` namespace to Pegasus's `com.linkedin.`; other names pass through. */
export function normaliseTypeName(name: string): string {
  return name.startsWith(PEGASUS2AVRO) ? PEGASUS + name.slice(PEGASUS2AVRO.length) : name;
}

/**
 * The aspect name DataHub uses for an aspect type, e.g. `...dataset.DatasetProperties` → `datasetProperties`,
 * `...ml.metadata.MLFeatureProperties` → `mlFeatureProperties`. Returns undefined when the name has no
 * namespace or its last segment is not a record name, so the caller can say what it expected.
 */
export function aspectNameOf(aspectType: string): string | undefined {
  const name = normaliseTypeName(aspectType);
  const override = OVERRIDES.get(name);
  if (override !== undefined) return override;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const simple = name.slice(dot + 1);
  if (!/^[A-Z][A-Za-z0-9_]*$/.test(simple)) return undefined;
  return decapitalise(simple);
}

// Pegasus lower-cases a leading acronym as a whole ("MLFeature" → "mlFeature"), keeping the capital that
// starts the next word, unlike a plain first-letter lower-casing.
function decapitalise(simple: string): string {
  let run = 0;
  while (run < simple.length && isUpper(simple[run])) run++;
  if (run === simple.length) return simple.toLowerCase();
  const cut = run > 1 ? run - 1 : run;
  return simple.slice(0, cut).toLowerCase() + simple.slice(cut);
}

function isUpper(c: string | undefined): boolean {
  return c !== undefined && c >= 'A' && c <= 'Z';
}
