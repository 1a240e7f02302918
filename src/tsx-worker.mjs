// Starts a worker thread's TypeScript module from the sources (the build starts its compiled NAME.js instead;
// worker-entry.ts chooses). tsx's --import hooks do not reach worker threads; its CommonJS hook, registered
// here, starts in about half the time of its module hooks, which run on a thread of their own (see
// test/bench/NOTES.md), so the module, whose path is the last argument, is required.
import { createRequire } from 'node:module';
import { register } from 'tsx/cjs/api';

register();
createRequire(import.meta.url)(process.argv[process.argv.length - 1]);
