import type Router from '@koa/router';
import { parseQuery } from '../http/validate.js';
import { autocompleteRecord } from '../features/autocomplete/autocompleteRecord.js';
import { AutocompleteQueryParams } from '../schemas/requests.js';
import { parseAutocompleteQuery } from '../features/autocomplete/autocompleteInput.js';
import type { RouteDeps } from '../endpoints/deps.js';

export function registerAutocompleteRoutes(router: Router, deps: RouteDeps): void {
  router.get('/autocomplete', async (ctx) => {
    const q = parseAutocompleteQuery(parseQuery(AutocompleteQueryParams, ctx.query));
    ctx.body = q ? (await deps.autocomplete.suggest(q)).map(autocompleteRecord) : [];
  });
}
