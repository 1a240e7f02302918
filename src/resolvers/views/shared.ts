// Views of aspects several entity types share: links and sub-types here; audit stamps, custom
// properties, users, groups and ownership re-exported from the files that hold them, for one import.

import type { AspectReader } from '../../store/catalogue.ts';
import { aspectObject, bool, obj, objects, str, strings } from '../../aspects/read.ts';
import { auditStamp, optionalAuditStamp } from './common.ts';
import { CorpUserView } from './corp-user.ts';
import { actorView } from './ownership.ts';

export { auditStamp, customProperties, type AuditStampView } from './common.ts';
export { CorpUserView } from './corp-user.ts';
export { actorView, CorpGroupView, ownershipView } from './ownership.ts';

export function institutionalMemoryView(reader: AspectReader, urn: string) {
  const memory = aspectObject(reader, urn, 'institutionalMemory');
  if (memory === null) return null;
  return {
    elements: objects(memory, 'elements').map((element) => {
      const created = auditStamp(obj(element, 'createStamp'));
      const actorUrn = created.actor ?? 'urn:li:corpuser:unknown';
      const label = str(element, 'description') ?? '';
      const settings = obj(element, 'settings');
      return {
        url: str(element, 'url') ?? '',
        label,
        description: label,
        author: new CorpUserView(reader, actorUrn),
        actor: actorView(reader, actorUrn),
        created,
        // Both are optional in DataHub's model: null when the stored link has none.
        updated: optionalAuditStamp(obj(element, 'updateStamp')),
        settings: settings === null ? null : { showInAssetPreview: bool(settings, 'showInAssetPreview') ?? false },
        associatedUrn: urn,
      };
    }),
  };
}

export function subTypesView(reader: AspectReader, urn: string) {
  const subTypes = aspectObject(reader, urn, 'subTypes');
  return subTypes === null ? null : { typeNames: strings(subTypes, 'typeNames') };
}
