/**
 * The backup file: a POSIX tar (ustar) archive, so an operator can list and unpack it with `tar` and
 * no uvtrace code (docs/backups.md). Written member by member from files on disk, with the SHA-256 of
 * every byte written computed on the way; read back by offsets, one member at a time. Only what a
 * backup needs: regular files, names up to 255 characters, any size (GNU's base-256 size beyond 8 GiB).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { Readable } from 'node:stream';

const BLOCK = 512;
/** The largest size the ustar octal field holds: 8 GiB - 1. */
const MAX_OCTAL_SIZE = 0o77777777777;

export type ArchiveEntry = { name: string; bytes: Uint8Array } | { name: string; path: string; size: number };

export interface ArchiveMember {
  name: string;
  size: number;
  /** Where the member's bytes start in the archive. */
  offset: number;
}

function writeText(header: Buffer, offset: number, length: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > length) throw new Error(`tar: "${text}" does not fit in ${length} bytes`);
  bytes.copy(header, offset);
}

function writeOctal(header: Buffer, offset: number, length: number, value: number): void {
  writeText(header, offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
}

function writeSize(header: Buffer, size: number): void {
  if (size <= MAX_OCTAL_SIZE) {
    writeOctal(header, 124, 12, size);
    return;
  }
  // GNU base-256: the first byte's high bit set, the value big-endian in the rest of the field.
  header[124] = 0x80;
  let rest = BigInt(size);
  for (let i = 135; i > 124; i -= 1) {
    header[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
}

function splitName(name: string): { prefix: string; base: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', base: name };
  for (let cut = name.indexOf('/'); cut >= 0; cut = name.indexOf('/', cut + 1)) {
    const prefix = name.slice(0, cut);
    const base = name.slice(cut + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(base) <= 100) return { prefix, base };
  }
  throw new Error(`tar: the name "${name}" is too long`);
}

function header(name: string, size: number, mtimeSeconds: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  const { prefix, base } = splitName(name);
  writeText(block, 0, 100, base);
  writeOctal(block, 100, 8, 0o600);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeSize(block, size);
  writeOctal(block, 136, 12, mtimeSeconds);
  block.fill(0x20, 148, 156);
  block[156] = 0x30; // '0': a regular file
  writeText(block, 257, 6, 'ustar\0');
  writeText(block, 263, 2, '00');
  writeText(block, 345, 155, prefix);
  writeOctal(block, 148, 8, checksum(block));
  return block;
}

function checksum(block: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i += 1) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  return sum;
}

const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

/** Writes the archive at `target` (which must not exist) and answers the SHA-256 of its bytes, hex. */
export async function writeArchive(target: string, entries: readonly ArchiveEntry[]): Promise<string> {
  const hash = createHash('sha256');
  const file = await open(target, 'wx', 0o600);
  let position = 0;
  const write = async (bytes: Uint8Array) => {
    hash.update(bytes);
    await file.write(bytes, 0, bytes.length, position);
    position += bytes.length;
  };
  try {
    const mtime = Math.floor(Date.now() / 1000);
    for (const entry of entries) {
      const size = 'bytes' in entry ? entry.bytes.length : entry.size;
      await write(header(entry.name, size, mtime));
      let written = 0;
      if ('bytes' in entry) {
        await write(entry.bytes);
        written = entry.bytes.length;
      } else {
        for await (const chunk of createReadStream(entry.path, { highWaterMark: 1 << 20 })) {
          await write(chunk as Buffer);
          written += (chunk as Buffer).length;
        }
      }
      if (written !== size) throw new Error(`tar: ${entry.name} changed size while it was archived`);
      await write(Buffer.alloc(padding(size)));
    }
    await write(Buffer.alloc(BLOCK * 2));
    await file.sync();
  } finally {
    await file.close();
  }
  return hash.digest('hex');
}

function readText(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? length : end).toString('utf8');
}

function readSize(block: Buffer): number {
  if (block[124]! & 0x80) {
    let value = 0n;
    for (let i = 125; i < 136; i += 1) value = (value << 8n) | BigInt(block[i]!);
    return Number(value);
  }
  return Number.parseInt(readText(block, 124, 12).trim() || '0', 8);
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** The regular files of an archive, in order. Throws on a header that is not a valid ustar header. */
export async function listArchive(path: string): Promise<ArchiveMember[]> {
  const file = await open(path, 'r');
  try {
    const { size: total } = await file.stat();
    const members: ArchiveMember[] = [];
    for (let position = 0; position + BLOCK <= total; ) {
      const block = await readAt(file, position, BLOCK);
      if (block.every((byte) => byte === 0)) return members;
      const stored = Number.parseInt(readText(block, 148, 8).trim(), 8);
      if (stored !== checksum(block))
        throw new Error(`not a valid archive: damaged header at byte ${position}`);
      const size = readSize(block);
      const prefix = readText(block, 345, 155);
      const base = readText(block, 0, 100);
      const type = String.fromCharCode(block[156]!);
      if (position + BLOCK + size > total) throw new Error('not a valid archive: it ends inside a member');
      if (type === '0' || type === '\0') {
        members.push({ name: prefix ? `${prefix}/${base}` : base, size, offset: position + BLOCK });
      }
      position += BLOCK + size + padding(size);
    }
    throw new Error('not a valid archive: its end marker is missing');
  } finally {
    await file.close();
  }
}

/** One member's bytes as a stream. */
export function memberStream(path: string, member: ArchiveMember): NodeJS.ReadableStream {
  if (member.size === 0) return Readable.from([]);
  return createReadStream(path, { start: member.offset, end: member.offset + member.size - 1 });
}

/** One (small) member's bytes. */
export async function readMember(path: string, member: ArchiveMember): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    return await readAt(file, member.offset, member.size);
  } finally {
    await file.close();
  }
}

/** SHA-256 of a file's bytes, hex, read as a stream. */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
