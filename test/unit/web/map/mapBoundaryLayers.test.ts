/** The map page's style layers for the boundary tiles (web/map/boundaryLayers.js, a plain browser module). */
import { describe, expect, it } from 'vitest';
import { vectorLayers } from '../../../../src/features/tiles/tileJson.js';

// A path in a variable: the module is browser JavaScript, outside the TypeScript program.
const modulePath = '../../../../web/map/boundaryLayers.js';
const { boundaryLayers, finestLevelAt, labelLanguage, labelText } = await import(modulePath);

type Layer = { id: string; type: string; 'source-layer': string; minzoom: number; filter?: unknown; paint: any };
/** What the service's TileJSON declares, as the page reads it. */
const declared = vectorLayers();

describe('the boundary style layers', () => {
  const layers = boundaryLayers(declared, 'fr') as Layer[];

  it('draw every level of the TileJSON from its own zoom, as a fill and a line, labels from the same zoom', () => {
    for (const { id, minzoom } of declared.filter((layer) => layer.id !== 'labels')) {
      const drawn = layers.filter((layer) => layer['source-layer'] === id);
      expect(drawn.map((layer) => layer.type).sort()).toEqual(['fill', 'line']);
      for (const layer of drawn) expect(layer.minzoom).toBe(minzoom);
    }
    const municipalityLabels = layers.find((layer) => layer.id === 'boundary-municipality-label')!;
    expect(municipalityLabels['source-layer']).toBe('labels');
    expect(municipalityLabels.minzoom).toBe(declared.find((layer) => layer.id === 'municipalities')!.minzoom);
    // Buildings have no names: no label layer.
    expect(layers.some((layer) => layer.id === 'boundary-building-label')).toBe(false);
  });

  it('put every line above every fill', () => {
    const lastFill = layers.map((layer) => layer.type).lastIndexOf('fill');
    const firstLine = layers.map((layer) => layer.type).indexOf('line');
    expect(lastFill).toBeLessThan(firstLine);
  });

  it('leave the countries unfilled over a base map', () => {
    const fillOf = (baseMap: boolean) =>
      (boundaryLayers(declared, '', { baseMap }) as Layer[]).find((l) => l.id === 'boundary-country-fill')!;
    // ['case', selected, 0.45, opacity]: the last value is the fill's opacity when not selected.
    expect(fillOf(false).paint['fill-opacity'].at(-1)).toBe(1);
    expect(fillOf(true).paint['fill-opacity'].at(-1)).toBe(0);
  });
});

describe('the labels’ language', () => {
  it('is the one picked, else the browser’s first the tiles carry, else each area’s own', () => {
    expect(labelLanguage('de', ['fr-BE'])).toBe('de');
    expect(labelLanguage('', ['en-GB', 'fr-BE', 'nl'])).toBe('fr');
    expect(labelLanguage('', ['en-US'])).toBe('');
  });

  it('shows the name in that language where the area has one, else its own', () => {
    expect(labelText('fr')).toEqual(['coalesce', ['get', 'name:fr'], ['get', 'name']]);
    expect(labelText('')).toEqual(['get', 'name']);
    expect(labelText('en')).toEqual(['get', 'name']);
  });
});

describe('what a click selects', () => {
  it('is the finest level the tiles hold at the zoom', () => {
    expect(finestLevelAt(declared, 3)).toBe('country');
    expect(finestLevelAt(declared, 8)).toBe('municipality');
    expect(finestLevelAt(declared, 10)).toBe('city');
    expect(finestLevelAt(declared, 12)).toBe('suburb');
    expect(finestLevelAt(declared, 14)).toBe('building');
  });
});
