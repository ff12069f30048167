/**
 * The one place the indexer reaches into the shared text normalisation, so index-time keys and
 * query-time keys can never come from two different implementations.
 */
export { formatSuffix, parseHouseNumber, parseHouseNumberParts, suffixKey } from '../src/text/houseNumber.js';
export { nameTokens, normaliseStreet, normaliseText, streetKey } from '../src/text/normalise.js';
export { normalisePostcode } from '../src/text/postcode.js';
