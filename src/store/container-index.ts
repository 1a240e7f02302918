// Which entities each container holds: the inverse of the `container` aspect, kept up to date as changes
// apply, so listing a container's contents never scans the catalogue. It holds URNs only, no aspect values.

import { isJsonObject, type JsonValue } from '../aspects/json.ts';

/** The aspect this index follows; every change to it moves its entity in a container's list. */
export const CONTAINER_ASPECT = 'container';

const NONE: ReadonlySet<string> = new Set();

export class ContainerIndex {
  readonly #children = new Map<string, Set<string>>();
  readonly #parentOf = new Map<string, string>();

  /**
   * Records `child`'s container aspect (null when it has none any more) and returns the containers whose
   * contents changed: the one it left and the one it joined. A child keeps its place when re-put unchanged.
   */
  set(child: string, aspect: JsonValue | null): string[] {
    const parent = isJsonObject(aspect) && typeof aspect.container === 'string' ? aspect.container : null;
    const old = this.#parentOf.get(child) ?? null;
    if (old === parent) return [];
    const changed: string[] = [];
    if (old !== null) {
      const siblings = this.#children.get(old);
      siblings?.delete(child);
      if (siblings?.size === 0) this.#children.delete(old);
      this.#parentOf.delete(child);
      changed.push(old);
    }
    if (parent !== null) {
      let siblings = this.#children.get(parent);
      if (siblings === undefined) {
        siblings = new Set();
        this.#children.set(parent, siblings);
      }
      siblings.add(child);
      this.#parentOf.set(child, parent);
      changed.push(parent);
    }
    return changed;
  }

  /** The entities whose container aspect names `container`, in the order they were put there. */
  children(container: string): ReadonlySet<string> {
    return this.#children.get(container) ?? NONE;
  }

  clear(): void {
    this.#children.clear();
    this.#parentOf.clear();
  }
}
