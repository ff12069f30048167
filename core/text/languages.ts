/**
 * The languages names are held in and shown in (Belgium's three official languages): the one list both the
 * indexer (a manifest's `names`, `language`, `streetNamesByLanguage`) and the API (`lang`, Accept-Language) read.
 * Adding a language is an entry here: the indexer then accepts it and the API shows it; a manifest naming a
 * language not listed is refused before any index exists, so no name is ever indexed that the API cannot show.
 */
export const LANGUAGES = ['nl', 'fr', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
