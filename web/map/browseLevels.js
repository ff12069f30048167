/**
 * The levels of the browse panel and the endpoints behind each: how a level's list is fetched (with the
 * endpoint's name filter), how one item's outline is fetched, and which children are drawn for the view.
 * Countries › provinces › municipalities › cities › suburbs › buildings › addresses.
 */
import { queryString } from './api.js';
import { addressLine } from './format.js';

const id = encodeURIComponent;

/**
 * Outline tolerance per level, in metres: about a pixel at the zoom the map frames such an area with. One value
 * per level (not per view) keeps the answers cacheable.
 */
export const OUTLINE_SIMPLIFY_M = { country: 2000, province: 200, municipality: 50, city: 20, suburb: 5 };

const viewParams = (view) => ({ bbox: view.bbox, simplify: view.simplify });
const areaItem = (record, note = record.local_identifier) => ({ id: record.id, name: record.name, note });
const firstFeature = (collection) => collection.features[0] ?? null;
const featureWithId = (itemId) => (collection) => collection.features.find((f) => f.id === itemId) ?? null;

export const LEVELS = {
  country: {
    noun: 'country',
    plural: 'countries',
    title: () => 'Countries',
    filter: true,
    list: async (api, _parent, name) => (await api(`/countries${queryString({ name })}`)).map((c) => areaItem(c)),
    outline: async (api, item) =>
      firstFeature(
        await api(`/countries/${id(item.id)}/geojson${queryString({ simplify: OUTLINE_SIMPLIFY_M.country })}`),
      ),
    child: 'province',
    childLayerUrl: (item, view) => `/countries/${id(item.id)}/provinces/geojson${queryString(viewParams(view))}`,
  },
  province: {
    noun: 'province',
    plural: 'provinces',
    title: (parent) => `Provinces of ${parent.name}`,
    filter: true,
    list: async (api, parent, name) =>
      (await api(`/countries/${id(parent.id)}/provinces${queryString({ name })}`)).map((p) => areaItem(p)),
    outline: async (api, item) =>
      firstFeature(
        await api(`/provinces/${id(item.id)}/geojson${queryString({ simplify: OUTLINE_SIMPLIFY_M.province })}`),
      ),
    child: 'municipality',
    childLayerUrl: (item, view) => `/provinces/${id(item.id)}/municipalities/geojson${queryString(viewParams(view))}`,
  },
  municipality: {
    noun: 'municipality',
    plural: 'municipalities',
    title: (parent) => `Municipalities of ${parent.name}`,
    filter: true,
    list: async (api, parent, name) =>
      (await api(`/provinces/${id(parent.id)}/municipalities${queryString({ name })}`)).map((m) => areaItem(m)),
    outline: async (api, item) =>
      featureWithId(item.id)(
        await api(
          `/municipalities/${id(item.id)}/geojson${queryString({ simplify: OUTLINE_SIMPLIFY_M.municipality })}`,
        ),
      ),
    child: 'city',
  },
  city: {
    noun: 'city',
    plural: 'cities',
    title: (parent) => (parent ? `Cities in ${parent.name}` : 'Cities'),
    filter: true,
    // Under a municipality: the cities whose envelope meets the municipality's, of that municipality.
    list: async (api, parent, name) => {
      const bbox = parent?.feature?.properties?.bbox?.join(',');
      const cities = await api(`/cities${queryString({ name, bbox })}`);
      return cities.filter((c) => !parent || c.municipality_id === parent.id).map((c) => areaItem(c));
    },
    outline: async (api, item) =>
      firstFeature(await api(`/cities/${id(item.id)}/geojson${queryString({ simplify: OUTLINE_SIMPLIFY_M.city })}`)),
    child: 'suburb',
    childLayerUrl: (item, view) => `/cities/${id(item.id)}/suburbs/geojson${queryString(viewParams(view))}`,
  },
  suburb: {
    noun: 'suburb',
    plural: 'suburbs',
    title: (parent) => `Suburbs of ${parent.name}`,
    filter: true,
    // No JSON list of suburbs: the collection as centroids is the light one.
    list: async (api, parent, name) =>
      (
        await api(`/cities/${id(parent.id)}/suburbs/geojson${queryString({ name, geometry: 'centroid' })}`)
      ).features.map((f) => areaItem(f.properties)),
    outline: async (api, item) =>
      featureWithId(item.id)(
        await api(`/suburbs/${id(item.id)}/geojson${queryString({ simplify: OUTLINE_SIMPLIFY_M.suburb })}`),
      ),
    child: 'building',
    // Footprints are not simplified (the endpoint has no `simplify`).
    childLayerUrl: (item, view) => `/suburbs/${id(item.id)}/buildings/geojson${queryString({ bbox: view.bbox })}`,
  },
  building: {
    noun: 'building',
    plural: 'buildings',
    title: (parent) => `Buildings of ${parent.name} in view`,
    // The endpoint has no name filter (buildings have no name): the list is what the map draws in the view.
    filter: false,
    fromLayer: (feature) => ({
      id: feature.id,
      name: feature.properties.local_identifier,
      note: feature.properties.building_type,
      feature,
    }),
    outline: async (_api, item) => item.feature,
    child: 'address',
  },
  address: {
    noun: 'address',
    plural: 'addresses',
    title: (parent) => `Addresses in building ${parent.name}`,
    filter: false,
    list: async (api, parent) =>
      (await api(`/buildings/${id(parent.id)}/addresses`)).map((a) => ({ id: a.id, name: addressLine(a), note: '' })),
    /** An address is a point: it is pinned rather than outlined. */
    point: async (api, item) => firstFeature(await api(`/addresses/${id(item.id)}/geojson`)),
  },
};
