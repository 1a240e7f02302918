// The two reference servers the benchmark measures minihub against, run as child processes:
// `bare` answers every POST with the same precomputed bytes (node:http's limit), `fsync` appends each
// write to a file with one fsync per write (the durable-write baseline group commit must beat).

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
} else {
  console.error('usage: baselines.ts bare RESPONSE_FILE | fsync RESPONSE_FILE LOG_FILE');
  process.exit(2);
}
