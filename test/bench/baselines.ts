// The reference servers the benchmark measures minihub against, run as child processes:
// `bare` answers every POST with the same precomputed bytes (node:http's limit), `fsync` appends each
// write to a file with one fsync per write (the durable-write baseline group commit must beat), and
// `group` group-commits them with no GraphQL at all, batching as the store does (what durable writes can cost
// on this machine).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { appendFileSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';

import { linger } from '../../src/store/commit-queue.ts';

const [mode, responseFile, logPath] = process.argv.slice(2);
const WRITE_ANSWER = Buffer.from('{"data":{"updateDescription":true},"extensions":{}}');

/** Reads the whole request body, as minihub must, then hands it over. */
function onBody(req: IncomingMessage, done: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => done(Buffer.concat(chunks)));
}

function answer(res: ServerResponse, bytes: Buffer): void {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': bytes.length });
  res.end(bytes);
}

function serve(handle: (req: IncomingMessage, res: ServerResponse) => void): void {
  // An exit of its own on SIGTERM, so a --cpu-prof of a reference server is written.
  process.once('SIGTERM', () => process.exit(0));
  const server = createServer(handle);
  server.listen(0, '127.0.0.1', () => console.log(`listening on ${JSON.stringify(server.address())}`));
}

if (mode === 'bare') {
  const bytes = readFileSync(responseFile as string);
  // `bare RESPONSE_FILE N`: a random one of N copies of the bytes per answer, each its own allocation, as a
  // cache of N answers holds them (what sending cold memory costs beside one hot buffer; ab.ts --copies).
  const count = Number(logPath ?? 1);
  if (!Number.isSafeInteger(count) || count < 1)
    throw new Error(`bare: expected a count of copies >= 1, got ${logPath}`);
  // allocUnsafeSlow: outside node's shared pool, so no two copies share a slab.
  const copies = Array.from({ length: count }, (_, index) => {
    if (index === 0) return bytes;
    const copy = Buffer.allocUnsafeSlow(bytes.length);
    bytes.copy(copy);
    return copy;
  });
  if (copies.length === 1) serve((req, res) => onBody(req, () => answer(res, bytes)));
  else serve((req, res) => onBody(req, () => answer(res, copies[Math.floor(Math.random() * copies.length)] as Buffer)));
} else if (mode === 'fsync') {
  const fd = openSync(logPath as string, 'a');
  serve((req, res) =>
    onBody(req, (body) => {
      appendFileSync(fd, Buffer.concat([body, Buffer.from('\n')]));
      fsyncSync(fd);
      answer(res, WRITE_ANSWER);
    }),
  );
} else if (mode === 'group') {
  // Each write's variables become a line; every write that arrives while one fdatasync runs shares the next.
  const file = await open(logPath as string, 'a');
  let waiting: { line: Buffer; res: ServerResponse }[] = [];
  let syncing = false;
  const flush = async (): Promise<void> => {
    syncing = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      writeSync(file.fd, Buffer.concat(batch.map(({ line }) => line)));
      await file.datasync();
      for (const { res } of batch) answer(res, WRITE_ANSWER);
      // The store's own linger: the writers just answered get the same few turns to join the next batch.
      const active = batch.length + waiting.length;
      await linger(() => waiting.length >= active);
    }
    syncing = false;
  };
  serve((req, res) =>
    onBody(req, (body) => {
      const { variables } = JSON.parse(body.toString()) as { variables: unknown };
      waiting.push({ line: Buffer.from(JSON.stringify({ time: Date.now(), change: variables }) + '\n'), res });
      if (!syncing) void flush();
    }),
  );
} else {
  console.error(
    'usage: baselines.ts bare RESPONSE_FILE [COPIES] | fsync RESPONSE_FILE LOG_FILE | group RESPONSE_FILE LOG_FILE',
  );
  process.exit(2);
}
