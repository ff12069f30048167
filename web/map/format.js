/** How addresses read on the page. Pure. */

/** `8`, `10A`, `139A-1`; a suffix that starts with a digit gets a hyphen (`8-1`), as it is written. */
export function houseNumber({ number, suffix }) {
  if (!suffix) return number;
  return /^\d/.test(suffix) ? `${number}-${suffix}` : `${number}${suffix}`;
}

export function streetLine(address) {
  return [address.streetname, houseNumber(address)].filter(Boolean).join(' ');
}

export function placeLine(address) {
  return [address.postcode, address.city].filter(Boolean).join(' ');
}

/** `Mekelweg 8, 2628CD Delft` */
export function addressLine(address) {
  return [streetLine(address), placeLine(address)].filter(Boolean).join(', ');
}

export function distanceText(metres) {
  return metres < 1000 ? `${metres.toFixed(1)} m` : `${(metres / 1000).toFixed(2)} km`;
}
