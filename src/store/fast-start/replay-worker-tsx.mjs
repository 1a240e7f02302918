// Starts the replay worker from the TypeScript sources (the build starts replay-worker.js itself). tsx's --import hooks
// do not reach worker threads; its CommonJS hook, registered here, starts in about half the time of its
// module hooks, which run on a thread of their own (see test/bench/NOTES.md), so the module is required.
import { createRequire } from 'node:module';
import { register } from 'tsx/cjs/api';

register();
createRequire(import.meta.url)('./replay-worker.ts');
