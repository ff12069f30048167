/**
 * The API key: asked for once and kept in this tab's sessionStorage (gone when the tab closes), or in localStorage
 * when the person ticks "remember"; "Change API key" and any 401 ask again.
 */

const STORAGE_KEY = 'geocoder.apiKey';

/** The key kept by either store: a remembered one from an earlier visit, or this tab's. */
function keptKey() {
  return localStorage.getItem(STORAGE_KEY) ?? sessionStorage.getItem(STORAGE_KEY) ?? '';
}

function forgetKey() {
  localStorage.removeItem(STORAGE_KEY);
  sessionStorage.removeItem(STORAGE_KEY);
}

function keepKey(key, remember) {
  forgetKey();
  (remember ? localStorage : sessionStorage).setItem(STORAGE_KEY, key);
}
const FIRST_ASK = 'This page calls the geocoder API, which needs a key.';

export function createKeyDialog({ dialog, form, input, remember, reason, cancel, opener, onKey }) {
  let key = keptKey();

  function ask(message) {
    reason.textContent = message;
    // Without a key there is nothing to go back to.
    cancel.hidden = key === '';
    input.value = '';
    if (!dialog.open) dialog.showModal();
    input.focus();
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const typed = input.value.trim();
    if (!typed) return;
    key = typed;
    keepKey(key, remember.checked);
    dialog.close();
    onKey(key, { typed: true });
  });
  cancel.addEventListener('click', () => dialog.close());
  // Escape closes a dialog; with no key yet the page would sit there doing nothing.
  dialog.addEventListener('cancel', (event) => {
    if (key === '') event.preventDefault();
  });
  opener.addEventListener('click', () => ask('Enter the API key to use from now on.'));

  return {
    key: () => key,
    /** On start: the kept key, or the dialog. */
    start() {
      if (key) onKey(key, { typed: false });
      else ask(FIRST_ASK);
    },
    /** The service refused the key: forget it and ask again (once, however many requests were refused). */
    refused() {
      key = '';
      forgetKey();
      if (!dialog.open) ask('The service did not accept that key (401). Enter a valid API key.');
    },
  };
}
