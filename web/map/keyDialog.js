/**
 * The API key: asked for once and kept in this browser's localStorage; "Change API key" and any 401 ask again.
 */

const STORAGE_KEY = 'geocoder.apiKey';
const FIRST_ASK = 'This page calls the geocoder API, which needs a key.';

export function createKeyDialog({ dialog, form, input, reason, cancel, opener, onKey }) {
  let key = localStorage.getItem(STORAGE_KEY) ?? '';

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
    localStorage.setItem(STORAGE_KEY, key);
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
      localStorage.removeItem(STORAGE_KEY);
      if (!dialog.open) ask('The service did not accept that key (401). Enter a valid API key.');
    },
  };
}
