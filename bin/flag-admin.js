#!/usr/bin/env node
// In a checkout this runs the TypeScript sources (Node >= 22.18 strips types). Installed as a
// package, Node strips no types under node_modules, so it runs the JavaScript of the prepack build.
const entry = import.meta.url.includes('/node_modules/') ? '../dist/src/cli/main.js' : '../src/cli/main.ts';
const { main } = await import(entry);

process.exitCode = await main(process.argv.slice(2));
