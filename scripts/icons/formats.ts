/**
 * The icon containers the installers need, written from PNG images: Windows' .ico and macOS'
 * .icns. Both formats may hold PNG data as it is (ICO since Windows Vista, ICNS since OS X 10.7),
 * so no image is re-encoded (docs/desktop.md, Icons).
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Every size the platforms ask for, in pixels: Linux's icon theme sizes, the .ico's and the .icns'. */
export const ICON_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024] as const;
/** The .ico's images: Windows picks among these for the taskbar, Explorer and the installer. */
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256] as const;
/** The .icns' entries: each type code holds a PNG of one size (`@2x` types are Retina images). */
export const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
  ['ic11', 32],
  ['ic12', 64],
  ['ic13', 256],
  ['ic14', 512],
] as const;

/** A PNG's width and height, read from its IHDR chunk; throws on anything that is not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (
    png.length < 24 ||
    !png.subarray(0, 8).equals(PNG_SIGNATURE) ||
    png.toString('latin1', 12, 16) !== 'IHDR'
  )
    throw new Error('not a PNG image');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function squarePng(png: Buffer, size: number): Buffer {
  const { width, height } = pngSize(png);
  if (width !== size || height !== size) throw new Error(`the ${size}px image is ${width}x${height}`);
  return png;
}

/** A .ico holding one PNG per size of `ICO_SIZES`, smallest first. */
export function encodeIco(pngs: ReadonlyMap<number, Buffer>): Buffer {
  const images = ICO_SIZES.map((size) => ({ size, png: squarePng(pngs.get(size) ?? Buffer.alloc(0), size) }));
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // 1: an icon (2 would be a cursor)
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // 0 stands for 256
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map(({ png }) => png)]);
}

/** A .icns holding a PNG for each of `ICNS_TYPES`. */
export function encodeIcns(pngs: ReadonlyMap<number, Buffer>): Buffer {
  const chunks = ICNS_TYPES.map(([type, size]) => {
    const png = squarePng(pngs.get(size) ?? Buffer.alloc(0), size);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(8 + png.length, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(8 + chunks.reduce((sum, chunk) => sum + chunk.length, 0), 4);
  return Buffer.concat([head, ...chunks]);
}

/** The images of a .ico, for checking one: each entry's declared size and its PNG. */
export function readIco(ico: Buffer): { size: number; png: Buffer }[] {
  if (ico.readUInt16LE(0) !== 0 || ico.readUInt16LE(2) !== 1) throw new Error('not an .ico file');
  return Array.from({ length: ico.readUInt16LE(4) }, (_, index) => {
    const at = 6 + 16 * index;
    const size = ico.readUInt8(at) || 256;
    const length = ico.readUInt32LE(at + 8);
    const offset = ico.readUInt32LE(at + 12);
    return { size, png: ico.subarray(offset, offset + length) };
  });
}

/** The entries of a .icns, for checking one: each type code and its data. */
export function readIcns(icns: Buffer): { type: string; data: Buffer }[] {
  if (icns.toString('latin1', 0, 4) !== 'icns' || icns.readUInt32BE(4) !== icns.length)
    throw new Error('not an .icns file');
  const entries: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < icns.length;) {
    const length = icns.readUInt32BE(at + 4);
    entries.push({ type: icns.toString('latin1', at, at + 4), data: icns.subarray(at + 8, at + length) });
    at += length;
  }
  return entries;
}
