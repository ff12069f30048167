import { describe, expect, it } from 'vitest';
import { LaterWordAreas } from '../../../../../src/features/places/laterWordAreas.js';

const areas = new LaterWordAreas([
  { keys: ['ten post'], area: 'Ten Post' },
  { keys: ['oude willem'], area: 'Oude Willem' },
  { keys: ['capelle aan den ijssel'], area: 'Capelle aan den IJssel' },
  { keys: ['den haag', 's gravenhage'], area: 'Den Haag' },
  { keys: ['delft'], area: 'Delft' },
  { keys: ['klein willebrord'], area: 'Klein-Willebrord' },
  { keys: ['sint joost ten node', 'saint josse ten noode'], area: 'Sint-Joost-ten-Node' },
]);

describe('cities by a later word of their names, in memory', () => {
  it('finds a city by the start of any later word, or of the words from there on', () => {
    expect(areas.find('post', 3)).toEqual(['Ten Post']);
    expect(areas.find('pos', 3)).toEqual(['Ten Post']);
    expect(areas.find('willem', 3)).toEqual(['Oude Willem']);
    expect(areas.find('den ijs', 3)).toEqual(['Capelle aan den IJssel']);
    expect(areas.find('gravenh', 3)).toEqual(['Den Haag']);
  });

  it('finds nothing by the first word (the place search does) nor by fewer than three characters', () => {
    expect(areas.find('oude', 3)).toEqual([]);
    expect(areas.find('delft', 3)).toEqual([]);
    expect(areas.find('po', 3)).toEqual([]);
    expect(areas.find('posten', 3)).toEqual([]);
  });

  it('gives each city once, at most as many as asked', () => {
    // Both of its names have a later word "nod..."/"noo..." and one "ten no...".
    expect(areas.find('nod', 3)).toEqual(['Sint-Joost-ten-Node']);
    expect(areas.find('ten no', 3)).toEqual(['Sint-Joost-ten-Node']);
    expect(areas.find('wil', 3)).toEqual(['Klein-Willebrord', 'Oude Willem']);
    expect(areas.find('wil', 1)).toHaveLength(1);
  });
});
