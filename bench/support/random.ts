export { seededRandom } from '../../indexer/base/seededRandom.js';

/** One edit (substitution, deletion, insertion or transposition) after the first letter, as people mistype. */
export function withOneTypo(word: string, random: () => number): string {
  if (word.length < 4) return word;
  const i = 1 + Math.floor(random() * (word.length - 2));
  const letter = String.fromCharCode(97 + Math.floor(random() * 26));
  switch (Math.floor(random() * 4)) {
    case 0:
      return word.slice(0, i) + letter + word.slice(i + 1);
    case 1:
      return word.slice(0, i) + word.slice(i + 1);
    case 2:
      return word.slice(0, i) + letter + word.slice(i);
    default:
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  }
}
