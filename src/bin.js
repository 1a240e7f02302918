#!/usr/bin/env node
// The `minihub` executable. In a checkout it runs the TypeScript sources through tsx; an installed
// package ships no sources, only the compiled dist/, which plain node runs.
import { existsSync } from 'node:fs';

if (existsSync(new URL('./cli.ts', import.meta.url))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./cli.ts');
} else {
  await import('../dist/cli.js');
}
