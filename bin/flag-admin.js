#!/usr/bin/env node
// Runs the TypeScript sources directly (Node >= 22.18 strips types outside node_modules).
import { main } from '../src/cli/main.ts';

process.exitCode = await main(process.argv.slice(2));
