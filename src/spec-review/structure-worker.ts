// The structure check of one JSON document in a worker thread (structure-thread.ts): the text is
// parsed here again, as the main thread parsed it (JSON.parse), and the findings, plain data, are
// posted back. A SpecReadError (a document or a file it refers to that cannot be read) is posted
// as one, since an error thrown across threads loses its class and the CLI tells it by its class.
import { parentPort, workerData } from 'node:worker_threads';
import { checkStructure } from './check-structure.ts';
import { SpecReadError, specSourceFromText } from './spec-source.ts';

const { file, absolutePath, text } = workerData as { file: string; absolutePath: string; text: string };
try {
  parentPort!.postMessage({ findings: await checkStructure(specSourceFromText(file, absolutePath, text)) });
} catch (error) {
  if (!(error instanceof SpecReadError)) throw error;
  parentPort!.postMessage({ readError: error.message });
}
