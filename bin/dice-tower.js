#!/usr/bin/env node
// Entry point of the `dice-tower` command: runs the TypeScript sources through tsx,
// so there is no build step between a clone and a running tower.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
