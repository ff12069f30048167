/**
 * The doors a typed address goes through (issue 49), each asked over HTTP and its answer read into one shape, so an
 * evaluation judges every door by the same rule: native /search and /autocomplete, Nominatim's free and structured
 * search, Pelias' search, and POST /geocode/forward. The paths and parameters are those the dialects' integration
 * tests use (test/integration/{nominatim,pelias}.test.ts).
 */
import type { ApiAnswer, EntryEvalContext } from './context.js';

/** One result as every door gives it: what it is, its id, and the street and city it names. */
export interface Top {
  /** address, street, postcode, city, …; Nominatim's address types and Pelias' layers read as ours. */
  kind: string;
  id: string;
  street: string;
  city: string;
  label: string;
  /** Forward: match.number (exact, other_suffix, nearest, none, …). */
  matchNumber?: string;
}

export interface DoorAnswer {
  status: number;
  ms: number;
  tops: Top[];
}

const NOMINATIM_KIND: Record<string, string> = { place: 'address', road: 'street', state: 'province' };

const read = (res: ApiAnswer, tops: (json: any) => Top[]): DoorAnswer => ({
  status: res.status,
  ms: res.ms,
  tops: res.status === 200 && res.json ? tops(res.json) : [],
});

const native = (r: any): Top => ({
  kind: r.type,
  id: r.id ?? '',
  street: r.streetname ?? '',
  city: r.city ?? '',
  label: `${r.type} ${r.label}`,
});

const nominatim = (r: any): Top => ({
  kind: NOMINATIM_KIND[r.addresstype] ?? r.addresstype,
  id: r.place_id,
  street: r.address?.road ?? '',
  city: r.address?.city ?? '',
  label: `${r.addresstype} ${r.display_name}`,
});

const pelias = (f: any): Top => ({
  kind: f.properties.layer,
  id: f.properties.id,
  street: f.properties.street ?? '',
  city: f.properties.locality ?? '',
  label: `${f.properties.layer} ${f.properties.label}`,
});

type Api = EntryEvalContext['api'];
const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

export const doors = {
  /** A native answer (/search, /autocomplete) already fetched. */
  readNative: (res: ApiAnswer) => read(res, (j) => j.map(native)),
  search: async (api: Api, q: string, size = 1) =>
    read(await api.get(`/search?${query({ q, size: String(size) })}`), (j) => j.map(native)),
  autocomplete: async (api: Api, q: string, size = 5) =>
    read(await api.get(`/autocomplete?${query({ q, size: String(size) })}`), (j) => j.map(native)),
  nominatim: async (api: Api, params: { q: string } | { street: string; postalcode: string; city: string }) =>
    read(
      await api.get(`/nominatim/search?${query({ ...params, format: 'jsonv2', addressdetails: '1', limit: '1' })}`),
      (j) => j.map(nominatim),
    ),
  pelias: async (api: Api, text: string) =>
    read(await api.get(`/pelias/v1/search?${query({ text, size: '1' })}`), (j) => (j.features ?? []).map(pelias)),
  forward: async (api: Api, body: { streetname: string; number: string; postcode: string; city: string }) =>
    read(await api.post('/geocode/forward', body), (r) => [
      {
        kind: 'address',
        id: r.id ?? '',
        street: r.streetname ?? '',
        city: r.city ?? '',
        label: `${r.streetname} ${r.number}${r.suffix ?? ''}, ${r.postcode} ${r.city} (match.number ${r.match?.number})`,
        matchNumber: r.match?.number,
      },
    ]),
};
