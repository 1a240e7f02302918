// DataHub's `browsePathV2` search field for one entity, as its index stores it: the ids of the path joined by
// the unit separator ␟ and prefixed with it. Reads aspects only; the filter's matching is filters.ts's.

import { aspectObject, objects, str } from '../aspects/read.ts';
import type { AspectReader } from '../store/catalogue.ts';

/** DataHub's browse path v2 delimiter, the unit separator symbol. */
export const BROWSE_PATH_DELIMITER = '\u241f';

/** DataHub's folder for an entity it can place nowhere else. */
const DEFAULT_FOLDER = 'Default';

/**
 * The browsePathV2 value of a dataset or container (null for other types): the ingested `browsePathsV2`
 * aspect's ids when there is one, else DataHub's default path: the parent containers, outermost first,
 * else (datasets) the parts of the name before the last dot, lower-cased, else `Default`.
 */
export function browsePathV2(
  reader: AspectReader,
  urn: string,
  entityType: string,
  datasetName: string,
): string | null {
  if (entityType !== 'DATASET' && entityType !== 'CONTAINER') return null;
  const ingested = aspectObject(reader, urn, 'browsePathsV2');
  if (ingested !== null) return joined(objects(ingested, 'path').flatMap((entry) => str(entry, 'id') ?? []));
  const containers = containerChain(reader, urn);
  if (containers.length > 0) return joined(containers);
  const parts =
    entityType === 'DATASET'
      ? datasetName
          .toLowerCase()
          .split('.')
          .filter((part) => part !== '')
      : [];
  return joined(parts.length > 1 ? parts.slice(0, -1) : [DEFAULT_FOLDER]);
}

function joined(ids: readonly string[]): string | null {
  return ids.length === 0 ? null : BROWSE_PATH_DELIMITER + ids.join(BROWSE_PATH_DELIMITER);
}

/** The containers above `urn`, outermost first; a cycle in ingested data ends the walk. */
function containerChain(reader: AspectReader, urn: string): string[] {
  const chain: string[] = [];
  const seen = new Set([urn]);
  for (
    let parent = containerOf(reader, urn);
    parent !== null && !seen.has(parent);
    parent = containerOf(reader, parent)
  ) {
    seen.add(parent);
    chain.unshift(parent);
  }
  return chain;
}

function containerOf(reader: AspectReader, urn: string): string | null {
  return str(aspectObject(reader, urn, 'container'), 'container');
}

/**
 * The terms DataHub's analyzer makes of a browsePathV2 value, which its filters compare against: every
 * prefix that ends at an entry, `␟a`, `␟a␟b`, ... So EQUAL `␟a` holds anywhere under `a`, and CONTAIN
 * an id holds when the id is on the path.
 */
export function browsePathTerms(path: string | null): string[] {
  if (path === null) return [];
  const terms: string[] = [];
  for (let at = path.indexOf(BROWSE_PATH_DELIMITER, 1); at > 0; at = path.indexOf(BROWSE_PATH_DELIMITER, at + 1))
    terms.push(path.slice(0, at));
  terms.push(path);
  return terms;
}
