// The reference servers the benchmark measures minihub against, run as child processes:
// `bare` answers every POST with the same precomputed bytes (node:http's limit), `fsync` appends each
// write to a file with one fsync per write (the durable-write baseline group commit must beat), and
// `group` group-commits them with no GraphQL at all (what durable writes can cost on this machine).

import { createServer } from 'node:http';
import { appendFileSync, fsyncSync, openSync } from 'node:fs';

const [mode, responseFile, logPath] = process.argv.slice(2);

if (mode === 'bare') {
  const { readFileSync } = await import('node:fs');
  const body = readFileSync(responseFile as string);
  const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length };
  const server = createServer((req, res) => {
    // Read the request body as minihub must, then answer the fixed bytes.
    req.on('data', () => {});
    req.on('end', () => {
      res.writeHead(200, headers);
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(`listening on ${JSON.stringify(server.address())}`));
} else if (mode === 'fsync') {
  const fd = openSync(logPath as string, 'a');
  const ok = Buffer.from('{"data":{"updateDescription":true},"extensions":{}}');
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      appendFileSync(fd, Buffer.concat([...chunks, Buffer.from('\n')]));
      fsyncSync(fd);
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': ok.length });
      res.end(ok);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(`listening on ${JSON.stringify(server.address())}`));
} else if (mode === 'group') {
  // Group commit with nothing else: each write's body becomes a line; every write that arrives while
  // one fdatasync runs shares the next. What durable writes cost on this machine without GraphQL.
  const { writeSync } = await import('node:fs');
  const { open } = await import('node:fs/promises');
  const handle = await open(logPath as string, 'a');
  const ok = Buffer.from('{"data":{"updateDescription":true},"extensions":{}}');
  let waiting: { line: Buffer; res: import('node:http').ServerResponse }[] = [];
  let syncing = false;
  const flush = async (): Promise<void> => {
    syncing = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      writeSync(handle.fd, Buffer.concat(batch.map(({ line }) => line)));
      await handle.datasync();
      for (const { res } of batch) {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': ok.length });
        res.end(ok);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    syncing = false;
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { variables: unknown };
      waiting.push({ line: Buffer.from(JSON.stringify({ time: Date.now(), change: body.variables }) + '\n'), res });
      if (!syncing) void flush();
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(`listening on ${JSON.stringify(server.address())}`));
} else {
  console.error('usage: baselines.ts bare RESPONSE_FILE | fsync RESPONSE_FILE LOG_FILE | group RESPONSE_FILE LOG_FILE');
  process.exit(2);
}
