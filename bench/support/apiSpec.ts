/**
 * `--api label=DIR[:mode...]`, the API builds a comparison script sets side by side (bench:cost, bench:batch,
 * bench:tail): a label for its rows, the checkout to run (`.` this one) and, after colons, modes the script knows
 * (bench:cost: `dist`, `direct`, Node.js flags). Without `=`, the spec is both the label and the directory.
 */
export interface ApiSpec {
  label: string;
  dir: string;
  modes: string[];
}

export function parseApiSpec(spec: string): ApiSpec {
  const at = spec.indexOf('=');
  const label = at < 0 ? spec : spec.slice(0, at);
  const [dir = '.', ...modes] = (at < 0 ? spec : spec.slice(at + 1)).split(':');
  return { label, dir, modes };
}
