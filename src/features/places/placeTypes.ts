/**
 * The search box's result types, one entry each (pure): how a place of the type is labelled, the prior it gets at
 * equal match, and whether type-ahead offers it beside streets. Keyed by PlaceType (core/elasticsearch/documents.ts),
 * so a new type does not compile until it has its entry here. Adding a type: docs/design.md, "Adding a result type".
 */
import type { PlaceParentNames, PlaceType } from '../../../core/elasticsearch/documents.js';

/** What a label is made of: the place's name, its own city (streets, postcodes) and its ancestors' names. */
export interface LabelParts {
  name: string;
  city: string;
  parents: PlaceParentNames;
}

export interface PlaceTypeRules {
  /** The label under the name: "Mekelweg, Delft", "2628CD Delft", "Delft, Zuid-Holland". */
  label: (parts: LabelParts) => string;
  /** Added to the score at equal match: a city is what people mean by its name; streets count on their size alone. */
  prior: number;
  /** Offered by /autocomplete beside its own streets, addresses and postcodes. */
  whileTyping: boolean;
}

/** The name and then each qualifier that is set and not already said, comma-separated. */
const joined = (...parts: string[]) => parts.filter((s, i) => s && parts.indexOf(s) === i).join(', ');

export const PLACE_TYPE_RULES: Readonly<Record<PlaceType, PlaceTypeRules>> = {
  street: { label: ({ name, city, parents }) => joined(name, city || parents.city), prior: 0, whileTyping: false },
  postcode: { label: ({ name, city }) => [name, city].filter(Boolean).join(' '), prior: 2, whileTyping: false },
  city: { label: ({ name, parents }) => joined(name, parents.province), prior: 8, whileTyping: true },
  suburb: {
    label: ({ name, parents }) => joined(name, parents.city || parents.municipality),
    prior: 2,
    whileTyping: true,
  },
  municipality: { label: ({ name, parents }) => joined(name, parents.province), prior: 6, whileTyping: true },
  province: { label: ({ name, parents }) => joined(name, parents.country), prior: 4, whileTyping: true },
  country: { label: ({ name }) => name, prior: 4, whileTyping: true },
};

/** The types /autocomplete offers beside its own suggestions, in PLACE_TYPE_RULES' order. */
export const TYPES_WHILE_TYPING = (Object.keys(PLACE_TYPE_RULES) as PlaceType[]).filter(
  (type) => PLACE_TYPE_RULES[type].whileTyping,
);
