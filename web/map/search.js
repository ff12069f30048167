/**
 * The search box: suggestions from /autocomplete while typing (focused on the map's centre), each with its type;
 * free text on Enter through /search, whose results (addresses, streets, postcodes, areas) are listed and the
 * first shown on the map (placeView.js: an address pinned, a place framed and outlined).
 */
import { queryString } from './api.js';
import { debounce } from './viewport.js';

const SUGGEST_DEBOUNCE_MS = 150;
const SUGGESTIONS = 8;
const RESULTS = 5;
/** Zoomed out further (Leaflet's 8), the map's centre says little about where the user is looking. */
const FOCUS_FROM_ZOOM = 7;
const HAS_TEXT = /[\p{L}\p{N}]/u;

export function createSearch({ form, input, listbox, resultsPanel, resultsList, map, api, status, places }) {
  let suggestions = [];
  let active = -1;
  /** Every question asked so far; an answer to an older one is dropped. */
  let suggested = 0;
  let searched = 0;

  const focus = () => {
    if (map.getZoom() < FOCUS_FROM_ZOOM) return {};
    const centre = map.getCenter();
    return { lat: centre.lat.toFixed(5), lon: centre.lng.toFixed(5) };
  };

  function render() {
    listbox.replaceChildren(
      ...suggestions.map((suggestion, i) => {
        const option = document.createElement('li');
        option.id = `suggestion-${i}`;
        option.setAttribute('role', 'option');
        option.setAttribute('aria-selected', String(i === active));
        option.textContent = `${suggestion.label} `;
        option.append(typeLabel(suggestion.type));
        // Keeps the focus in the input, so the click lands before the list closes on blur.
        option.addEventListener('mousedown', (event) => event.preventDefault());
        option.addEventListener('click', () => choose(suggestion));
        return option;
      }),
    );
    const open = suggestions.length > 0;
    listbox.hidden = !open;
    input.setAttribute('aria-expanded', String(open));
    if (active >= 0) input.setAttribute('aria-activedescendant', `suggestion-${active}`);
    else input.removeAttribute('aria-activedescendant');
  }

  function close() {
    suggestions = [];
    active = -1;
    render();
  }

  const suggest = debounce(async () => {
    const mine = ++suggested;
    const q = input.value.trim();
    if (!HAS_TEXT.test(q)) return close();
    try {
      const answer = await api(`/autocomplete${queryString({ q, size: SUGGESTIONS, ...focus() })}`);
      if (mine !== suggested) return;
      suggestions = answer;
      active = -1;
      render();
    } catch (error) {
      status.error(error);
    }
  }, SUGGEST_DEBOUNCE_MS);

  /** Stops suggestions in flight from reopening the list. */
  function stopSuggesting() {
    suggest.cancel();
    suggested++;
    close();
  }

  function choose(suggestion) {
    stopSuggesting();
    if (suggestion.type === 'street') {
      // A street is half an address: keep typing the number there.
      input.value = `${suggestion.streetname} `;
      input.focus();
      map.jumpTo({ center: [suggestion.longitude, suggestion.latitude], zoom: Math.max(map.getZoom(), 15) });
      status.info(`${suggestion.label}: type a house number`);
      return;
    }
    input.value = suggestion.label;
    places.show(suggestion);
    status.info(`${suggestion.label} (${suggestion.type})`);
  }

  function showResults(q, results) {
    resultsPanel.hidden = false;
    resultsPanel.scrollIntoView({ block: 'nearest' });
    if (results.length === 0) {
      const none = document.createElement('li');
      none.textContent = `Nothing found for “${q}”.`;
      resultsList.replaceChildren(none);
      status.info(`Nothing found for “${q}”`);
      return;
    }
    resultsList.replaceChildren(
      ...results.map((result) => {
        const row = document.createElement('li');
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = result.label;
        button.addEventListener('click', () => places.show(result, [confidenceText(result)]));
        // Beside the button, not in it: the button's name stays the place's label.
        row.append(button, typeLabel(result.type));
        return row;
      }),
    );
    places.show(results[0], [confidenceText(results[0])]);
    status.info(`${results.length} ${results.length === 1 ? 'result' : 'results'} for “${q}”`);
  }

  async function search() {
    stopSuggesting();
    const mine = ++searched;
    const q = input.value.trim();
    if (!HAS_TEXT.test(q)) return status.info('Type an address or a place to search for');
    status.info(`Searching “${q}”…`);
    try {
      const results = await api(`/search${queryString({ q, size: RESULTS, ...focus() })}`);
      if (mine === searched) showResults(q, results);
    } catch (error) {
      status.error(error);
    }
  }

  input.addEventListener('input', suggest);
  input.addEventListener('blur', stopSuggesting);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') return stopSuggesting();
    if (suggestions.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      active = (active + step + suggestions.length) % suggestions.length;
      render();
    } else if (event.key === 'Enter' && active >= 0) {
      event.preventDefault();
      choose(suggestions[active]);
    }
  });
  // Enter without a highlighted suggestion, or the Search button: free text.
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    search();
  });
}

const confidenceText = (result) => `confidence ${Math.round(result.confidence * 100)} %`;

/** What kind of result this is (street, city, postcode, …), as a small label after its name. */
function typeLabel(type) {
  const label = document.createElement('span');
  label.className = 'type-label';
  label.dataset.type = type;
  label.textContent = type;
  return label;
}
