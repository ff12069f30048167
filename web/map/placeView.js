/**
 * A chosen search result on the map: an address is pinned; a place is framed by its `bbox`, an area (city,
 * suburb, municipality, province, country) outlined by its boundary, a street or a postcode by the rectangle of
 * its addresses' extent.
 */
import { placeLine, streetLine } from './format.js';
import { boundaryUrl, boxFeature, isArea } from './places.js';

export function createPlaceView({ api, status, outline, pin }) {
  /** Every result shown so far; a boundary arriving for an older one is dropped. */
  let shown = 0;

  function pinAddress(address, lines = []) {
    outline.clear();
    pin.show({
      lat: address.latitude,
      lon: address.longitude,
      title: streetLine(address),
      lines: [placeLine(address), ...lines],
    });
  }

  async function show(result, lines = []) {
    const mine = ++shown;
    if (result.type === 'address') return pinAddress(result, lines);
    if (!result.bbox) {
      // A postcode suggestion has no extent: its point.
      outline.clear();
      return pin.show({ lat: result.latitude, lon: result.longitude, title: result.label, lines });
    }
    pin.clear();
    outline.frame(result.bbox);
    if (!isArea(result)) return outline.show(boxFeature(result.bbox));
    // The previous outline goes at once: it would otherwise stand for this place while its boundary loads.
    outline.clear();
    try {
      const feature = (await api(boundaryUrl(result))).features[0];
      if (mine !== shown || !feature) return;
      // A country is framed by its main land (the Netherlands, not the Caribbean too), as the browse panel does.
      outline.show(feature, { frame: result.type === 'country' });
    } catch (error) {
      status.error(error);
    }
  }

  return { show };
}
