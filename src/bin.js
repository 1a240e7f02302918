#!/usr/bin/env node
// The `minihub` executable: registers tsx so the TypeScript sources run as they are, from any directory.
import { register } from 'tsx/esm/api';

register();
await import('./cli.ts');
