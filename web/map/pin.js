/** The pinned place (a search result or a chosen address): one marker, with a popup saying what it is. */
import { maplibregl } from './mapSetup.js';

/** Leaflet's 16 on its 256 px tiles. */
const PIN_ZOOM = 15;

export function createPin(map) {
  let marker = null;
  return {
    show({ lat, lon, title, lines = [] }) {
      const content = document.createElement('div');
      content.className = 'pin-popup';
      content.dataset.testid = 'pin-popup';
      const heading = document.createElement('strong');
      heading.textContent = title;
      content.append(heading);
      for (const line of lines) {
        const row = document.createElement('div');
        row.textContent = line;
        content.append(row);
      }
      marker?.remove();
      marker = new maplibregl.Marker({ title: `Pinned: ${title}` }).setLngLat([lon, lat]).addTo(map);
      marker.getElement().classList.add('pin');
      map.jumpTo({ center: [lon, lat], zoom: Math.max(map.getZoom(), PIN_ZOOM) });
      marker.setPopup(new maplibregl.Popup({ offset: 30, closeOnClick: false }).setDOMContent(content)).togglePopup();
    },
    /** A place framed by its extent instead: the last address pinned would only mislead. */
    clear() {
      marker?.remove();
      marker = null;
    },
  };
}
