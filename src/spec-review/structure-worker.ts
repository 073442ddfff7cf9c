// The structure check of one JSON document in a worker thread (structure-thread.ts): the text is
// parsed here again, as the main thread parsed it (JSON.parse), and the findings, plain data, are
// posted back.
import { parentPort, workerData } from 'node:worker_threads';
import { checkStructure } from './check-structure.ts';
import { specSourceFromText } from './spec-source.ts';

const { file, absolutePath, text } = workerData as { file: string; absolutePath: string; text: string };
parentPort!.postMessage(await checkStructure(specSourceFromText(file, absolutePath, text)));
