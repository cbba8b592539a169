// NumPy files written in the browser, as numpy.save and numpy.savez write them,
// so a run's q and k open in numpy.load and in the checker page (check.html):
//   .npy v1.0: "\x93NUMPY" 1 0, a 2-byte little-endian header length, the
//     header dict padded with spaces and '\n' to a multiple of 64 bytes, then
//     little-endian float32 values in C order;
//   .npz: a zip of .npy members, stored (method 0, no compression), each with
//     its CRC-32, a central directory and the end record; timestamps fixed at
//     1980-01-01 so the same arrays give the same bytes.
// The core has the same writer (core/checker/io/npy.h write_npy, npz.h write_npz);
// it is not bound to JS, and these few lines save a round trip of megabytes.

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** float32 values of `shape` (C order) as the bytes of a .npy v1.0 file. */
export function npy(values, shape) {
  const count = shape.reduce((a, b) => a * b, 1);
  if (values.length !== count) throw new Error(`npy: ${values.length} values for shape (${shape.join(', ')})`);
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(', ');
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${dims}), }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  header += ' '.repeat(pad % 64) + '\n';
  const out = new Uint8Array(10 + header.length + 4 * count);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);  // \x93NUMPY, version 1.0
  new DataView(out.buffer).setUint16(8, header.length, true);
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  const data = 10 + header.length;
  if (LITTLE_ENDIAN) {
    out.set(new Uint8Array(Float32Array.from(values).buffer), data);
  } else {
    const dv = new DataView(out.buffer, data);
    for (let i = 0; i < count; i++) dv.setFloat32(4 * i, values[i], true);
  }
  return out;
}

let crcTable = null;

/** CRC-32 (IEEE 802.3, as zip uses) of bytes. */
export function crc32(bytes) {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const DOS_DATE = (0 << 9) | (1 << 5) | 1;  // 1980-01-01
const DOS_TIME = 0;

/**
 * A stored zip of named members, as numpy.savez writes: {q: npyBytes} becomes
 * the member "q.npy".
 * @param {[string, Uint8Array][]} members
 * @returns {Uint8Array}
 */
export function npz(members) {
  const enc = new TextEncoder();
  const files = members.map(([name, data]) => ({ name: enc.encode(`${name}.npy`), data, crc: crc32(data) }));
  const localSize = files.reduce((a, f) => a + 30 + f.name.length + f.data.length, 0);
  const centralSize = files.reduce((a, f) => a + 46 + f.name.length, 0);
  const out = new Uint8Array(localSize + centralSize + 22);
  const dv = new DataView(out.buffer);
  let p = 0;
  const u16 = (v) => { dv.setUint16(p, v, true); p += 2; };
  const u32 = (v) => { dv.setUint32(p, v, true); p += 4; };
  for (const f of files) {
    f.offset = p;
    u32(0x04034b50); u16(20); u16(0); u16(0); u16(DOS_TIME); u16(DOS_DATE);
    u32(f.crc); u32(f.data.length); u32(f.data.length); u16(f.name.length); u16(0);
    out.set(f.name, p); p += f.name.length;
    out.set(f.data, p); p += f.data.length;
  }
  const central = p;
  for (const f of files) {
    u32(0x02014b50); u16(20); u16(20); u16(0); u16(0); u16(DOS_TIME); u16(DOS_DATE);
    u32(f.crc); u32(f.data.length); u32(f.data.length); u16(f.name.length); u16(0); u16(0);
    u16(0); u16(0); u32(0); u32(f.offset);
    out.set(f.name, p); p += f.name.length;
  }
  const cdSize = p - central;
  u32(0x06054b50); u16(0); u16(0); u16(files.length); u16(files.length);
  u32(cdSize); u32(central); u16(0);
  return out;
}

/**
 * A TrainSession q/k snapshot as the checker reads it: q [heads, samples, d_k]
 * (the query position of each sample), k [heads, samples·seq, d_k] (every key
 * of every sample), "sequences" = [samples] so the checker scores each query
 * against the keys of its own sequence only (core/checker/qk_input.h), and the logits
 * the softmax saw, [heads, samples, seq]: the layout of q's rows against their
 * sequence's keys, which the checker's scale fit reads (it names the divisor the
 * run used), and "divisor", the number the run divides q·k by, at which the
 * checker judges it (absent with QK-LayerNorm: q and k are before the norm).
 * @param {{samples, heads, seq, dk, divisor, q: Float32Array, k: Float32Array, logits: Float32Array}} snap
 *   q [samples, heads·dk], k [samples, seq, heads·dk] as the core returns them
 */
export function snapshotNpz(snap) {
  const { samples: S, heads: H, seq: T, dk: D } = snap;
  const q = new Float32Array(H * S * D);
  const logits = new Float32Array(H * S * T);
  const k = new Float32Array(H * S * T * D);
  for (let h = 0; h < H; h++) {
    for (let s = 0; s < S; s++) {
      q.set(snap.q.subarray(s * H * D + h * D, s * H * D + (h + 1) * D), (h * S + s) * D);
      for (let t = 0; t < T; t++) {
        const from = (s * T + t) * H * D + h * D;
        k.set(snap.k.subarray(from, from + D), ((h * S + s) * T + t) * D);
      }
      logits.set(snap.logits.subarray((s * H + h) * T, (s * H + h + 1) * T), (h * S + s) * T);
    }
  }
  return npz([
    ['q', npy(q, [H, S, D])],
    ['k', npy(k, [H, S * T, D])],
    ['sequences', npy([S], [1, 1])],  // (1, 1): the core's .npy reader takes 2-D and 3-D arrays
    ['logits', npy(logits, [H, S, T])],
    ...(snap.divisor > 0 ? [['divisor', npy([snap.divisor], [1, 1])]] : []),
  ]);
}
