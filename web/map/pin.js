/** The pinned place (a search result or a chosen address): one marker, with a popup saying what it is. */

const PIN_ZOOM = 16;

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
      marker = L.marker([lat, lon], { title, alt: `Pinned: ${title}` }).addTo(map);
      map.setView([lat, lon], Math.max(map.getZoom(), PIN_ZOOM), { animate: false });
      marker.bindPopup(content).openPopup();
    },
    /** A place framed by its extent instead: the last address pinned would only mislead. */
    clear() {
      marker?.remove();
      marker = null;
    },
  };
}
