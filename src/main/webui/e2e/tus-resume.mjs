// A real tus client against Crater's /api/v1/uploads: uploads SOURCE in CHUNK-byte PATCHes, aborts after the first
// chunk, then finds the upload again through tus-js-client's fingerprint store (a file, as a page reload would find it
// in localStorage) and finishes it from the server's offset. Prints one JSON line with what happened.
import { readFileSync } from 'node:fs';
import * as tus from 'tus-js-client';

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};

const data = readFileSync(env('SOURCE'));
const chunkSize = Number(env('CHUNK'));
const storage = new tus.FileUrlStorage(env('TUS_STORE'));
const options = {
  endpoint: new URL('/api/v1/uploads', env('CRATER_URL')).toString(),
  chunkSize,
  retryDelays: [100, 300, 1000, 2000],
  headers: { Authorization: `Bearer ${env('CRATER_TOKEN')}` },
  metadata: { space: env('SPACE'), path: env('TARGET_PATH'), filename: 'ignored-when-path-names-a-file' },
  urlStorage: storage,
  storeFingerprintForResuming: true,
  removeFingerprintOnSuccess: true,
};

function firstChunkThenAbort() {
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(data, {
      ...options,
      onError: reject,
      onSuccess: () => reject(new Error('the upload finished before it could be interrupted')),
      onChunkComplete: (_size, accepted) => {
        upload.abort().then(() => resolve({ url: upload.url, accepted }), reject);
      },
    });
    upload.start();
  });
}

async function resume() {
  const probe = new tus.Upload(data, options);
  const previous = await probe.findPreviousUploads();
  if (previous.length !== 1) throw new Error(`expected one stored upload, found ${previous.length}`);
  return new Promise((resolve, reject) => {
    let firstAccepted = null;
    const upload = new tus.Upload(data, {
      ...options,
      onError: reject,
      onChunkComplete: (_size, accepted) => {
        if (firstAccepted === null) firstAccepted = accepted;
      },
      onSuccess: () => resolve({ url: upload.url, firstAccepted }),
    });
    upload.resumeFromPreviousUpload(previous[0]);
    upload.start();
  });
}

const interrupted = await firstChunkThenAbort();
const resumed = await resume();
console.log(JSON.stringify({ interrupted, resumed }));
