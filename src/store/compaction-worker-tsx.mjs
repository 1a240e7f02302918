// Starts the compaction worker from the TypeScript sources (the build starts compaction-worker.js itself):
// tsx's --import hooks do not reach worker threads, so the worker registers tsx before loading its module.
const { register } = await import('tsx/esm/api');
register();
await import('./compaction-worker.ts');
