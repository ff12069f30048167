/** The entry-point evaluations `npm run eval:entry` runs, in this order (`--only name,...` picks some). */
import { evaluateAutocomplete } from './autocomplete.js';
import { evaluateBrussels } from './brussels.js';
import type { EntryEvaluator } from './context.js';
import { evaluateForms } from './forms.js';
import { evaluateFormsAutocomplete } from './formsAutocomplete.js';
import { evaluateFreeText } from './freeText.js';
import { evaluatePlaces } from './places.js';
import { evaluateReverse } from './reverse.js';
import { evaluateTails } from './tails.js';
import { evaluateUnknownNumber } from './unknownNumber.js';

export const ENTRY_EVALUATIONS: Record<string, EntryEvaluator> = {
  search: evaluateFreeText,
  reverse: evaluateReverse,
  autocomplete: evaluateAutocomplete,
  places: evaluatePlaces,
  brussels: evaluateBrussels,
  tails: evaluateTails,
  forms: evaluateForms,
  'forms-autocomplete': evaluateFormsAutocomplete,
  'unknown-number': evaluateUnknownNumber,
};
