const BY_EXTENSION: Record<string, string> = {
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  txt: 'text/plain',
  json: 'application/json',
  xml: 'application/xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  html: 'text/html',
  htm: 'text/html',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
};

const GENERIC_CONTENT_TYPE = 'application/octet-stream';

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=("[^"\\\\\\r\\n]*"|${TOKEN}))*$`);

function byExtension(name: string | undefined): string | undefined {
  const ext = /\.([A-Za-z0-9]{1,10})$/.exec(name ?? '')?.[1]?.toLowerCase();
  return ext ? BY_EXTENSION[ext] : undefined;
}

/**
 * The content type a file is served with: what the client declared for the part when it is
 * specific and well-formed, else a guess from the entry's name or the client's own file name,
 * else application/octet-stream.
 */
export function resolveContentType(declared: string | undefined, ...names: Array<string | undefined>): string {
  const given = (declared ?? '').trim();
  if (given && given.length <= 200 && MEDIA_TYPE.test(given) && given.toLowerCase() !== GENERIC_CONTENT_TYPE) {
    return given;
  }
  for (const name of names) {
    const guess = byExtension(name);
    if (guess) return guess;
  }
  return GENERIC_CONTENT_TYPE;
}
