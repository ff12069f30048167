/**
 * The status line: what the page is doing, and the last error. An error stays until dismissed or replaced,
 * so a failure is never hidden by the next progress message.
 */

import { NO_KEY } from './api.js';

export function describeError(error) {
  if (error && typeof error === 'object' && 'path' in error && 'status' in error) {
    const status = error.status ? `${error.status} ${error.code}` : error.code;
    return `${error.path}: ${status}: ${error.message}`;
  }
  return String(error instanceof Error ? error.message : error);
}

export function createStatus({ line, errorBox, errorText, dismiss }) {
  dismiss.addEventListener('click', () => {
    errorBox.hidden = true;
  });
  return {
    info(text) {
      line.textContent = text;
    },
    error(error) {
      // A call not made for want of a key: the key dialog already says what is needed.
      if (error?.code === NO_KEY) return;
      errorText.textContent = describeError(error);
      errorBox.hidden = false;
    },
  };
}
