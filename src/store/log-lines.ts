// Reads log records from the file's bytes: splits whole lines, decodes them strictly as UTF-8 and
// checks each record's shape. Shared by replay on the main thread and in the replay worker; it
// neither applies records nor touches the file beyond the chunks it is given.

import { isAscii } from 'node:buffer';

import { parseLogRecord, type LoggedRecord } from './log-record.ts';

const NEWLINE = 0x0a;

/** A line that cannot be replayed: its number (counted from 1 in what was read) and what is wrong. */
export class BadLine extends Error {
  override readonly name = 'BadLine';
  readonly line: number;

  constructor(line: number, problem: string) {
    super(problem);
    this.line = line;
  }
}

export interface ReadRecords {
  /** Bytes up to and including the last newline. */
  end: number;
  /** What follows the last newline: a torn line, or nothing. */
  tail: Buffer;
  /** Newline-terminated lines read, blank ones included (line numbers continue from here). */
  lines: number;
  /** Records read (blank lines are not records), and the last one's sequence number (0 for none). */
  records: number;
  lastSeq: number;
}

/**
 * Hands every record to `onRecord` with its line's text and the byte where that line starts (counted
 * from the first chunk's start), in order; throws BadLine for the first line that is not valid UTF-8
 * or not a record, before passing on anything after it.
 */
export async function readRecords(
  chunks: AsyncIterable<Buffer>,
  onRecord: (record: LoggedRecord, line: string, at: number) => void,
): Promise<ReadRecords> {
  let records = 0;
  let lastSeq = 0;
  const { end, tail, lines } = await forEachLine(chunks, (text, line, at) => {
    if (text.trim() === '') return;
    const parsed = parseLogRecord(text);
    if (typeof parsed === 'string') throw new BadLine(line, parsed);
    onRecord(parsed, text, at);
    records++;
    lastSeq = parsed.seq;
  });
  return { end, tail, lines, records, lastSeq };
}

/** Calls `onLine` for each newline-terminated line with its first byte; returns where the last one ends and what follows it. */
async function forEachLine(
  chunks: AsyncIterable<Buffer>,
  onLine: (text: string, line: number, at: number) => void,
): Promise<{ end: number; tail: Buffer; lines: number }> {
  // Each run is decoded at once (newline bytes never occur inside a multi-byte UTF-8 character, so the
  // cut is clean), then split: far cheaper than a decode per line.
  const runs = wholeLineRuns(chunks);
  try {
    return await eachLineOfRuns(runs, onLine);
  } catch (error) {
    // A bad line leaves the runs unfinished: ending them closes the file they read. The bad line is
    // what is reported, whatever closing it says.
    await runs.return(Buffer.alloc(0)).catch(() => {});
    throw error;
  }
}

async function eachLineOfRuns(
  runs: AsyncGenerator<Buffer, Buffer>,
  onLine: (text: string, line: number, at: number) => void,
): Promise<{ end: number; tail: Buffer; lines: number }> {
  let end = 0;
  let line = 0;
  for (let next = await runs.next(); ; next = await runs.next()) {
    if (next.done === true) return { end, tail: next.value, lines: line };
    const bytes = next.value;
    let at = end;
    end += bytes.length;
    const ascii = isAscii(bytes);
    const text = ascii ? bytes.toString('latin1') : decodeOrNull(bytes);
    if (text === null) {
      // Some line is not UTF-8: decode and hand on the lines one at a time, so the first bad line is
      // reported, bad UTF-8 or bad JSON, wherever the file was cut into batches.
      for (let start = 0; start < bytes.length;) {
        const stop = bytes.indexOf(NEWLINE, start);
        const lineText = decodeUtf8(bytes.subarray(start, stop));
        if (lineText === null) throw new BadLine(line + 1, 'not valid UTF-8');
        onLine(lineText, ++line, at);
        at += stop - start + 1;
        start = stop + 1;
      }
      continue;
    }
    for (let start = 0, stop = text.indexOf('\n'); stop !== -1; start = stop + 1, stop = text.indexOf('\n', start)) {
      const lineText = text.slice(start, stop);
      onLine(lineText, ++line, at);
      // In ASCII a character is a byte; otherwise count the line's UTF-8 bytes.
      at += (ascii ? lineText.length : Buffer.byteLength(lineText)) + 1;
    }
  }
}

/**
 * The bytes of `chunks` cut after their last newline, so each run holds whole lines only (a line may
 * span chunks); what follows the last newline of all is the generator's return value. Only a line that
 * spans chunks is copied, alone: the rest of a chunk is handed on as it was read (copying a 4 MiB chunk
 * to join one line held the event loop for milliseconds, see test/bench/NOTES.md).
 */
export async function* wholeLineRuns(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer, Buffer> {
  let pending: Buffer[] = [];
  for await (const chunk of chunks) {
    const last = chunk.lastIndexOf(NEWLINE);
    if (last === -1) {
      pending.push(chunk);
      continue;
    }
    let from = 0;
    if (pending.length > 0) {
      from = chunk.indexOf(NEWLINE) + 1;
      yield Buffer.concat([...pending, chunk.subarray(0, from)]);
    }
    if (last + 1 > from) yield chunk.subarray(from, last + 1);
    pending = chunk.length > last + 1 ? [chunk.subarray(last + 1)] : [];
  }
  return Buffer.concat(pending);
}

// ignoreBOM: a byte order mark stays in the text (and fails JSON.parse) rather than vanish from the
// start of whichever batch it begins, which would also shift every byte position after it.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes UTF-8 text, or null where it is not valid (a lenient decode would replay U+FFFD as if
 * written). ASCII, mostly what logs hold, is valid UTF-8 as it stands and decodes byte for byte as
 * Latin-1, far cheaper than a checked decode (see test/bench/NOTES.md), so that comes first.
 */
export function decodeUtf8(bytes: Buffer): string | null {
  return isAscii(bytes) ? bytes.toString('latin1') : decodeOrNull(bytes);
}

function decodeOrNull(bytes: Buffer): string | null {
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}
