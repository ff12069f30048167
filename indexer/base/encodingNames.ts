/** Which encoding names the indexer accepts: UTF-8 under any spelling, or any iconv-lite can decode. */
import iconv from 'iconv-lite';

export function isUtf8Name(encoding: string | undefined): boolean {
  return encoding === undefined || /^utf-?8$/i.test(encoding);
}

/** Whether iconv-lite can decode `encoding` (the manifest refuses a name it cannot). */
export function encodingKnown(encoding: string): boolean {
  return isUtf8Name(encoding) || iconv.encodingExists(encoding);
}
