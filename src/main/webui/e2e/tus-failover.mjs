// A real tus client uploading SOURCE in CHUNK-byte PATCHes to one Crater replica (CRATER_URL). Once KILL_AT bytes
// are on their way it prints {"event":"kill"} and goes on; the test then kills that replica, so the PATCH in flight
// breaks and the client gives up on it. The client then finds its upload again through its fingerprint store (a file,
// as a page reload would find it in localStorage), asks the other replica (CRATER_URL_B) where the upload stands, as a
// load balancer in front of both would send it there, and finishes the upload on that replica. One JSON line per event.
import { readFileSync } from 'node:fs';
import * as tus from 'tus-js-client';

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const say = (o) => console.log(JSON.stringify(o));

const data = readFileSync(env('SOURCE'));
const killAt = Number(env('KILL_AT'));
const token = env('CRATER_TOKEN');
const other = env('CRATER_URL_B');
const options = {
  endpoint: new URL('/api/v1/uploads', env('CRATER_URL')).toString(),
  chunkSize: Number(env('CHUNK')),
  headers: { Authorization: `Bearer ${token}` },
  metadata: { space: env('SPACE'), path: env('TARGET_PATH') },
  urlStorage: new tus.FileUrlStorage(env('TUS_STORE')),
  fingerprint: () => Promise.resolve(`failover:${env('TARGET_PATH')}`),
  storeFingerprintForResuming: true,
  removeFingerprintOnSuccess: true,
};

function untilTheReplicaDies() {
  return new Promise((resolve, reject) => {
    let told = false;
    const upload = new tus.Upload(data, {
      ...options,
      retryDelays: [500, 1000],
      onProgress: (sent) => {
        if (!told && sent >= killAt) {
          told = true;
          say({ event: 'kill', sent });
        }
      },
      onError: (e) => resolve({ url: upload.url, error: String(e).split('\n')[0] }),
      onSuccess: () => reject(new Error('the upload finished before its replica was killed')),
    });
    upload.start();
  });
}

async function offsetOn(url) {
  const r = await fetch(url, { method: 'HEAD', headers: { Authorization: `Bearer ${token}`, 'Tus-Resumable': '1.0.0' } });
  return { status: r.status, offset: Number(r.headers.get('Upload-Offset')) };
}

async function onTheOtherReplica() {
  const previous = await new tus.Upload(data, options).findPreviousUploads();
  if (previous.length !== 1) throw new Error(`expected one stored upload, found ${previous.length}`);
  const url = new URL(new URL(previous[0].uploadUrl).pathname, other).toString();
  const before = await offsetOn(url);
  let retries = 0;
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(data, {
      ...options,
      // A PATCH of the killed replica holds the upload until its hold lapses (crater.files.tus.lock-for); 423 is
      // retried, as the console's client does.
      retryDelays: [1000, 2000, 3000, 5000, 5000, 5000, 10000, 10000],
      onShouldRetry: (err) => {
        retries++;
        const status = err.originalResponse?.getStatus() ?? 0;
        return status === 0 || status >= 500 || status === 409 || status === 423;
      },
      onSuccess: () => resolve({ url, before, retries }),
      onError: reject,
    });
    upload.resumeFromPreviousUpload({ ...previous[0], uploadUrl: url });
    upload.start();
  });
}

const interrupted = await untilTheReplicaDies();
say({ event: 'interrupted', ...interrupted });
const resumed = await onTheOtherReplica();
say({ event: 'resumed', ...resumed });
