/**
 * The one place the indexer reaches into the shared text normalisation, so index-time keys and
 * query-time keys can never come from two different implementations.
 */
export { formatSuffix, parseHouseNumber, parseHouseNumberParts, suffixKey } from '../../core/text/houseNumber.js';
export { nameTokens, normaliseStreet, normaliseText, streetKey, wordTails } from '../../core/text/normalise.js';
export { normalisePostcode } from '../../core/text/postcode.js';
export { placeNameKeys } from '../../core/text/placeKeys.js';
export { LANGUAGES } from '../../core/text/languages.js';
