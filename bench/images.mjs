// What serving uploaded images costs the server's memory: the largest avatar a member can store
// and the largest content image an admin can, each read by N slow readers at once (each asks,
// then reads nothing, so the answer waits in the server). Each row is printed beside the same
// run's N slow readers of GET /api/v1/health, with the server's resident memory (VmRSS) before
// and with the readers connected, and its peak (VmHWM).
// Run: npm run bench:images [READERS...]   (after scripts/build.sh --release; default 16 64 200;
// one address may hold 256 connections). BENCH_SERVER_BINARY: another build (the test
// command's smoke runs the debug one with 128 readers). Exits 1 when readers of one image grow
// the server's memory by more than GROWTH_MIB: the bytes are shared, whatever the readers.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { deflateSync, crc32 } from 'node:zlib';
import { DEMO_ADMIN, DEMO_USER, startServer } from '../web/test/browser/harness.mjs';

const READERS = process.argv.slice(2).map(Number).filter(Boolean);
const counts = READERS.length ? READERS : [16, 64, 200];
const binary = process.env.BENCH_SERVER_BINARY ?? 'target/release/lvlx';
// Each reader of one image costs its socket and a reference, never a copy of the image: 200
// readers of a 2 MB image took 322 MiB when each answer was copied into its write buffer.
const GROWTH_MIB = 32;
let failed = false;

/** A PNG of RGB noise, `side` pixels a side: it does not compress, so it is stored as large. */
function noisePng(side) {
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const raw = Buffer.alloc(side * (side * 3 + 1));
  let state = 0x2545f491;
  for (let i = 0; i < raw.length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    raw[i] = i % (side * 3 + 1) === 0 ? 0 : state & 0xff;
  }
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    png,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function upload(server, token, path, part, bytes) {
  const form = new FormData();
  form.append(part, new Blob([bytes], { type: 'image/png' }), 'noise.png');
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))[1]);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

/** N connections that each send `path` and read nothing for `holdMs`; the peak memory meanwhile. */
async function slowReaders(server, path, n, holdMs = 1500) {
  const { hostname: host, port } = new URL(server.url);
  const sockets = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise((resolve, reject) => {
          const socket = connect({ host, port: Number(port) }, () => {
            socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\n\r\n`);
            socket.pause();
            resolve(socket);
          });
          socket.on('error', reject);
        }),
    ),
  );
  await new Promise((r) => setTimeout(r, holdMs));
  const during = memory(server.pid);
  for (const s of sockets) s.destroy();
  await new Promise((r) => setTimeout(r, 300));
  return during;
}

const server = await startServer({ binary });
try {
  const member = await server.storageFor(DEMO_USER);
  const user = JSON.parse(member.userInfo);
  const admin = (await server.storageFor(DEMO_ADMIN)).sessionToken;
  const avatarUpload = noisePng(512);
  const avatar = await upload(server, member.sessionToken, '/api/v1/image', 'profile', avatarUpload);
  const avatarPath = `${avatar.path}${user.id}.png?k=${avatar.key}`;
  const contentUpload = noisePng(816);
  // A content image belongs to a block whose text exists.
  const text = await fetch(`${server.url}/api/v1/admin/content/dashboard-notice/en`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ title: 'Notice', description: 'Bench.' }),
  });
  if (!text.ok) throw new Error(`content text: ${text.status}`);
  const block = await upload(server, admin, '/api/v1/admin/content/dashboard-notice/en/image', 'image', contentUpload);
  const contentPath = new URL(block.image, server.url).pathname;
  const size = async (path) => (await (await fetch(`${server.url}${path}`)).arrayBuffer()).byteLength;
  const images = [
    ['avatar', avatarPath, avatarUpload.length, await size(avatarPath)],
    ['content image', contentPath, contentUpload.length, await size(contentPath)],
  ];
  const mib = (x) => x.toFixed(1).padStart(7);
  console.log(`server: ${binary}`);
  for (const [name, , uploaded, stored] of images)
    console.log(
      `${name}: uploaded ${(uploaded / 1e6).toFixed(2)} MB, stored and served ${(stored / 1e6).toFixed(2)} MB`,
    );
  console.log('row                              readers  RSS before  RSS during  peak (MiB)');
  for (const n of counts) {
    for (const [name, path] of [['GET /api/v1/health (baseline)', '/api/v1/health'], ...images]) {
      const before = memory(server.pid);
      const during = await slowReaders(server, path, n);
      console.log(
        `${name.padEnd(32)} ${String(n).padStart(7)}  ${mib(before.rss)}     ${mib(during.rss)}     ${mib(during.hwm)}`,
      );
      if (during.rss - before.rss > GROWTH_MIB) {
        console.log(`  ${name}: ${n} readers grew the server by more than ${GROWTH_MIB} MiB`);
        failed = true;
      }
    }
  }
} finally {
  server.stop();
}
if (failed) process.exit(1);
