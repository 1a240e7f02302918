// Opens a data directory's store for one command and always closes it (releasing the lock).

import { Store } from '../store/store.ts';

export async function withStore<T>(dataDir: string, run: (store: Store) => Promise<T>): Promise<T> {
  const store = await Store.open({ dataDir, warn: (message) => process.stderr.write(`minihub: ${message}\n`) });
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}
