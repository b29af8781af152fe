// jsqr is CommonJS with its function as `exports.default`.
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/** What a phone's camera would read from a PNG QR code, with the image's size; null when unreadable. */
export function readPngQr(bytes: Uint8Array): { text: string | null; width: number; height: number } {
  const png = PNG.sync.read(Buffer.from(bytes));
  const code = jsQR.default(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
  return { text: code?.data ?? null, width: png.width, height: png.height };
}
