// Imported for its effect by the browser entry only: puts Ajv in a bundle, where there is no
// require for ./ajv-engine.ts to load it with on first use. Node's entries do not import this,
// so a Node start does not load Ajv until a schema is compiled.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { provideAjvEngine } from './ajv-engine.ts';

provideAjvEngine({ Ajv2020, addFormats: addFormats.default });
