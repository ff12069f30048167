/**
 * Addresses by our ids, as the dialects' lookups ask for them (Nominatim's /lookup, Pelias' /place): the native
 * address records, an unknown id left out as those services leave out what they do not know.
 */
import { NotFoundError } from '../../../core/domain/errors.js';
import { addressRecord } from '../address/addressRecords.js';
import type { AddressRepository } from '../address/addressRepository.js';
import { addressPlace, type DialectPlace } from './place.js';

export async function addressPlaces(addresses: AddressRepository, ids: readonly string[]): Promise<DialectPlace[]> {
  const docs = await Promise.all(
    ids.map((id) =>
      addresses.get(id).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      }),
    ),
  );
  return docs.flatMap((doc) =>
    doc ? [addressPlace({ ...addressRecord(doc), longitude: doc.location.lon, latitude: doc.location.lat }, 1)] : [],
  );
}
