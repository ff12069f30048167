/**
 * The look of the map: the colour of each level of the boundary tiles and of the page's own overlays (the chosen
 * outline, the areas around a clicked point, the children the browse panel draws). Pure data.
 */

/** Per level: its line colour and width, its fill (a fill layer also makes the level clickable), a dashed line. */
export const LEVEL_STYLES = {
  country: { line: '#8f8572', width: 1, fill: '#f7f4ec', fillOpacity: 1 },
  province: { line: '#a0693a', width: 1.2, dash: [5, 4] },
  municipality: { line: '#1b7f72', width: 1.5 },
  city: { line: '#2c6fbb', width: 1, dash: [2, 2] },
  suburb: { line: '#6a3d9a', width: 1, fill: '#6a3d9a', fillOpacity: 0.04 },
  building: { line: '#555555', width: 0.6, fill: '#777777', fillOpacity: 0.35 },
};

/** The page's own overlays, drawn above the tiles. */
export const OVERLAY_STYLES = {
  children: { line: '#d97706', width: 1.5 },
  reverse: { line: '#1f5fa8', width: 2, dash: [3, 2] },
  outline: { line: '#d7301f', width: 3 },
};

/** The area a click selected: filled in this colour. */
export const SELECTED_FILL = { color: '#f4c542', opacity: 0.45 };
