/** Map panes (drawing order) and the look of each kind of outline. */

/** Lower panes are drawn first; Leaflet's markers (600) and popups (700) stay above all of them. */
export const PANES = {
  countries: 250,
  provinces: 260,
  'browse-province': 310,
  'browse-municipality': 320,
  'browse-suburb': 330,
  'browse-building': 340,
  reverse: 420,
  outline: 430,
};

export function createPanes(map) {
  for (const [name, zIndex] of Object.entries(PANES)) map.createPane(name).style.zIndex = String(zIndex);
}

export const STYLES = {
  country: { color: '#8f8572', weight: 1, fillColor: '#f7f4ec', fillOpacity: 1 },
  province: { color: '#a0693a', weight: 1.2, dashArray: '5 4', fill: false },
  municipality: { color: '#1b7f72', weight: 1, fill: false },
  suburb: { color: '#6a3d9a', weight: 1.5, fillColor: '#6a3d9a', fillOpacity: 0.05 },
  building: { color: '#555', weight: 0.6, fillColor: '#777', fillOpacity: 0.35 },
  outline: { color: '#d7301f', weight: 3, fill: false },
  reverse: { color: '#1f5fa8', weight: 2, dashArray: '6 4', fill: false },
};
